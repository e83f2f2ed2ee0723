// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Rehearse",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "RehearseCore", targets: ["RehearseCore"]),
        .library(name: "RehearseTesting", targets: ["RehearseTesting"]),
        .library(name: "RehearseScenario", targets: ["RehearseScenario"]),
        .library(name: "RehearseLayout", targets: ["RehearseLayout"]),
        .library(name: "RehearseSession", targets: ["RehearseSession"]),
        .library(name: "RehearsePluginHost", targets: ["RehearsePluginHost"]),
        .library(name: "RehearseDBusClient", targets: ["RehearseDBusClient"]),
        .library(name: "RehearseDBusService", targets: ["RehearseDBusService"]),
        .library(name: "RehearseCommand", targets: ["RehearseCommand"]),
        .library(name: "RehearsePlugins", targets: ["RehearsePlugins"]),
        .library(name: "LoginAnimator", targets: ["LoginAnimator"]),
        .library(name: "AutoScroll", targets: ["AutoScroll"]),
        .library(name: "Gateway", targets: ["Gateway"]),
        .library(name: "Panner", targets: ["Panner"]),
        .library(name: "LoginEvents", targets: ["LoginEvents"]),
        .executable(name: "rehearse", targets: ["rehearse"]),
    ],
    traits: [
        .trait(name: "Viewer", description: "The live viewer (`rehearse view`, `serve --http`): builds SwiftNIO and Hummingbird"),
        .default(enabledTraits: ["Viewer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "RehearseCore",
            dependencies: [
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ]
        ),
        .target(name: "RehearseTesting", dependencies: ["RehearseCore"]),
        .target(name: "RehearseLayout", dependencies: ["RehearseCore"]),
        .target(name: "LoginEvents", dependencies: ["RehearseCore"], path: "Plugins/LoginEvents"),
        .target(name: "AutoScroll", dependencies: ["RehearseCore"], path: "Plugins/AutoScroll"),
        .target(name: "Panner", dependencies: ["RehearseCore"], path: "Plugins/Panner"),
        .target(
            name: "LoginAnimator", dependencies: ["RehearseCore", "RehearseLayout", "LoginEvents"], path: "Plugins/LoginAnimator"),
        .target(name: "Gateway", dependencies: ["RehearseCore", "LoginEvents"], path: "Plugins/Gateway"),
        .target(name: "RehearsePlugins", dependencies: ["RehearseCore", "AutoScroll", "Panner", "LoginAnimator", "Gateway"]),
        .target(name: "RehearseSupport"),
        .target(name: "RehearseScenario", dependencies: ["RehearseCore", "RehearseLayout", "RehearseSupport", "Yams"]),
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CProcess"),
        .target(name: "RehearseSession", dependencies: ["RehearseCore", "RehearseScenario"]),
        .target(name: "RehearseDBusWire", dependencies: ["CDBus", "RehearseCore"]),
        .target(
            name: "RehearseDBusInterface",
            dependencies: ["CDBus", "RehearseDBusWire", "RehearseCore", "RehearseSession", "RehearseSupport"]
        ),
        .target(
            name: "RehearsePluginHost",
            dependencies: [
                "CDBus", "CProcess", "RehearseDBusWire", "RehearseDBusInterface", "RehearseCore", "RehearseScenario",
                "RehearseSupport",
            ]
        ),
        .target(
            name: "RehearseDBusClient", dependencies: ["CDBus", "RehearseDBusWire", "RehearseDBusInterface", "RehearseCore"]),
        .target(
            name: "RehearseDBusService",
            dependencies: [
                "CDBus", "RehearseDBusWire", "RehearseDBusInterface", "RehearsePluginHost", "RehearseCore", "RehearseScenario",
                "RehearseSession", "RehearseSupport",
            ]
        ),
        .target(
            name: "RehearseAccessibility",
            dependencies: ["CDBus", "RehearseDBusWire", "RehearseDBusInterface", "RehearseCore", "RehearseSession"]
        ),
        .target(
            name: "RehearseView",
            dependencies: [
                "RehearseCore",
                "RehearseSupport",
                "RehearseScenario",
                "RehearseSession",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.embedInCode("Page/viewer.html"), .embedInCode("Page/viewer.js"), .embedInCode("Page/viewer.css")]
        ),
        .target(
            name: "RehearseCommand",
            dependencies: [
                "RehearseCore",
                "RehearseScenario",
                "RehearsePlugins",
                "RehearseSession",
                "RehearseSupport",
                "RehearseDBusWire",
                "RehearseDBusInterface",
                "RehearsePluginHost",
                "RehearseDBusClient",
                "RehearseDBusService",
                "RehearseAccessibility",
                .target(name: "RehearseView", condition: .when(traits: ["Viewer"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "rehearse", dependencies: ["RehearseCommand"]),
        .testTarget(name: "RehearseCoreTests", dependencies: ["RehearseCore", "RehearseTesting"]),
        .testTarget(name: "RehearseTestingTests", dependencies: ["RehearseTesting"]),
        .testTarget(name: "RehearseLayoutTests", dependencies: ["RehearseLayout", "RehearseTesting"]),
        .testTarget(name: "AutoScrollTests", dependencies: ["AutoScroll", "RehearseTesting"]),
        .testTarget(name: "PannerTests", dependencies: ["Panner", "RehearseTesting"]),
        .testTarget(name: "LoginAnimatorTests", dependencies: ["LoginAnimator", "RehearseTesting"]),
        .testTarget(name: "GatewayTests", dependencies: ["Gateway", "RehearseTesting"]),
        .testTarget(name: "RehearseSessionTests", dependencies: ["RehearseSession", "RehearsePlugins"]),
        .testTarget(
            name: "RehearseAccessibilityTests", dependencies: ["RehearseAccessibility", "RehearseSession", "RehearsePlugins"]),
        .testTarget(
            name: "RehearseDBusTests",
            dependencies: [
                "RehearseDBusWire", "RehearseDBusInterface", "RehearsePluginHost", "RehearseDBusService", "RehearseSession",
                "CDBus", "CProcess", "RehearsePlugins",
            ]
        ),
        .testTarget(
            name: "RehearseViewTests", dependencies: ["RehearseView", "RehearseSession", "RehearseScenario", "RehearsePlugins"]),
        .testTarget(name: "RehearseSupportTests", dependencies: ["RehearseSupport"]),
        .testTarget(
            name: "RehearseScenarioTests", dependencies: ["RehearseScenario", "RehearsePlugins"],
            exclude: ["Malformed", "MalformedExpectations.tsv"]),
        .target(name: "IntegrationTestSupport", path: "Tests/IntegrationTestSupport"),
        .testTarget(
            name: "RehearseDBusIntegrationTests",
            dependencies: [
                "rehearse", "IntegrationTestSupport", "RehearseAccessibility", "RehearseCore", "RehearseDBusInterface",
                "RehearseDBusService", "RehearseDBusWire", "RehearsePluginHost", "RehearsePlugins", "RehearseScenario",
                "RehearseSession",
            ],
            exclude: [
                "atspi_attack.py", "atspi_client.py", "atspi_dogtail_login.py", "bus_plugin.py", "dbus_client.py",
                "hostile_peer.py", "peer_order.py", "peer_serials.py", "plugin_attack.py", "session_client.py",
                "stock_plugin_client.py",
            ]),
        .testTarget(
            name: "rehearseTests",
            dependencies: [
                "rehearse", "IntegrationTestSupport", "RehearseAccessibility", "RehearseCore", "RehearseDBusInterface",
                "RehearseDBusService", "RehearseDBusWire", "RehearsePluginHost", "RehearsePlugins", "RehearseScenario",
                "RehearseSession", "RehearseView",
            ],
            exclude: [
                "junit.xsd", "viewer_browser.py", "schema_check.py", "schema_mutations.py", "schema_instances.py",
                "third_tap_plugin.py", "drag-breaks-list.yaml", "report_browser.py", "browser_support.py", "html_ids.py",
                "report_gestures_browser.py", "fault_plugin.py", "hopper.c", "reads_plugin.py",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
