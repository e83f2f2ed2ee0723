import AutoScroll
import Gateway
import LoginAnimator
import Panner
import RehearseCore

/// Every plugin that ships with Rehearse. The command line tool and the tests share this list;
/// plugins from other packages are added with `RehearseCommand.main(plugins:)`.
public let shippedPlugins = PluginRegistry([
    PluginDescriptor(AutoScroll.self),
    PluginDescriptor(Panner.self),
    PluginDescriptor(LoginAnimator.self),
    PluginDescriptor(Gateway.self),
])
