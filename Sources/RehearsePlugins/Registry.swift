import AutoScroll
import Gateway
import LoginAnimator
import Panner
import RehearseCore

/// Every behaviour plugin that ships with Rehearse: adding a plugin is one line here (and its
/// target in `Package.swift`). The command line tool and the tests share this list.
public let pluginRegistry = BehaviourRegistry([
    BehaviourDescriptor(AutoScroll.self),
    BehaviourDescriptor(Panner.self),
    BehaviourDescriptor(LoginAnimator.self),
    BehaviourDescriptor(Gateway.self),
])
