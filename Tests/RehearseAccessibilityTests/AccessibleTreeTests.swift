import Foundation
import RehearseCore
import RehearsePlugins
import RehearseScenario
import RehearseSession
import Testing

@testable import RehearseAccessibility

/// The scene as AT-SPI clients see it: which nodes, under which parent, with which role, name and
/// states; and the paths they are at.
struct AccessibleTreeTests {
    static let scene = """
        name: tree
        scene:
          nodes:
            - {id: form, kind: view, frame: [0, 0, 320, 400]}
            - {id: email, kind: textField, parent: form, frame: [20, 100, 280, 44], accessibilityLabel: Email, text: me@example.org}
            - {id: pin, kind: textField, parent: form, frame: [20, 150, 280, 44], secure: true, text: "1234"}
            - {id: drawer, kind: view, frame: [0, 0, 0, 0]}
            - {id: send, kind: button, parent: drawer, frame: [20, 200, 280, 44], text: Send}
            - {id: gone, kind: view, frame: [0, 0, 320, 400], hidden: true}
            - {id: ghost, kind: button, parent: gone, frame: [20, 300, 280, 44], text: Ghost}
            - {id: logo, kind: imageView, frame: [0, 450, 44, 44]}
            - {id: title, kind: label, frame: [0, 500, 200, 20], text: Welcome, accessibilityTraits: [header]}
            - {id: off, kind: button, frame: [200, 500, 100, 44], text: Later, accessibilityTraits: [button, notEnabled]}
            - {id: list, kind: scrollView, frame: [0, 0, 320, 568], contentSize: [320, 1000]}
            - {id: more, kind: button, parent: list, frame: [20, 900, 280, 44], text: More}
        steps: []
        """

    static func tree() throws -> AccessibleTree {
        let setup = try ScenarioLoader(registry: shippedPlugins).load(data: Data(scene.utf8), file: "tree.yaml")
        let session = try SimulatorSession(setup: setup, registry: shippedPlugins, mode: .manual)
        return AccessibleTree(of: session.simulation, title: "Tree")
    }

    @Test func visibleNodesOnlyEachUnderItsNearestVisibleAncestorInReadingOrder() throws {
        let tree = try Self.tree()
        #expect(tree[Scene.rootID]?.children == ["form", "send", "logo", "title", "off", "list"])
        #expect(tree["form"]?.children == ["email", "pin"])
        // A zero-size view is not visible, but its button is: the button goes to the root.
        #expect(tree["drawer"] == nil)
        #expect(tree["send"]?.parent == Scene.rootID)
        // A hidden view hides its children.
        #expect(tree["gone"] == nil && tree["ghost"] == nil)
        // Scrolled out of view: there, not showing.
        #expect(tree["list"]?.children == ["more"])
        #expect(tree.items.count == 10)
    }

    @Test func rolesNamesAndStatesComeFromKindTraitsLabelAndText() throws {
        let tree = try Self.tree()
        let described = tree.items.values.sorted { $0.id < $1.id }.map { item in
            "\(item.id): \(item.role.name) \"\(item.name)\" \(item.states.map(\.rawValue).sorted())"
        }
        #expect(
            described == [
                "email: text \"Email\" [7, 8, 11, 24, 25, 26, 30]",
                "form: panel \"\" [8, 24, 25, 30]",
                "list: scroll pane \"\" [8, 24, 25, 30]",
                "logo: image \"\" [8, 24, 25, 30]",
                "more: push button \"More\" [8, 24, 30]",
                "off: push button \"Later\" [25, 30]",
                "pin: password text \"\" [7, 8, 11, 24, 25, 26, 30]",
                "root: frame \"Tree\" [8, 24, 25, 30]",
                "send: push button \"Send\" [8, 24, 25, 30]",
                "title: heading \"Welcome\" [8, 24, 25, 30]",
            ])
    }

    @Test func thePointFindsTheDeepestLastDrawnNodeThere() throws {
        let tree = try Self.tree()
        // The scroll view, drawn last, covers the whole screen.
        #expect(tree.item(at: Point(x: 30, y: 110), under: Scene.rootID)?.id == "list")
        #expect(tree.item(at: Point(x: 30, y: 110), under: "form")?.id == "email")
        #expect(tree.item(at: Point(x: 30, y: 90), under: "form")?.id == "form")
        #expect(tree.item(at: Point(x: 30, y: 450), under: "form") == nil)
        // Not showing: never found at a point.
        #expect(tree.item(at: Point(x: 30, y: 910), under: "more") == nil)
    }

    @Test func everyIdHasOnePathAndEveryPathOneId() {
        for id in ["username", "login-button", "a_b", "ünï", "root", "x/y z", "_2d"] {
            let path = AccessiblePaths.path(of: id)
            #expect(
                path.dropFirst(AccessiblePaths.nodePrefix.count).allSatisfy {
                    $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_")
                })
            #expect(AccessiblePaths.id(at: path) == id)
        }
        #expect(AccessiblePaths.path(of: "login-button") == AccessiblePaths.nodePrefix + "login_2dbutton")
        for path in [
            AccessiblePaths.nodePrefix, AccessiblePaths.nodePrefix + "_2", AccessiblePaths.nodePrefix + "_zz",
            AccessiblePaths.nodePrefix + "_2D", AccessiblePaths.nodePrefix + "_ff", AccessiblePaths.root, "/elsewhere",
        ] {
            #expect(AccessiblePaths.id(at: path) == nil, "\(path)")
        }
    }
}
