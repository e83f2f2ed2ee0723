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
        .library(name: "RehearseDBus", targets: ["RehearseDBus"]),
        .library(name: "RehearsePlugins", targets: ["RehearsePlugins"]),
        .executable(name: "rehearse", targets: ["rehearse"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(
            name: "RehearseCore",
            dependencies: [
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: [
                // The bus and the animator sit on class properties touched on every event; release
                // builds skip the runtime exclusivity checks there (debug builds and tests keep them).
                .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
            ]
        ),
        .target(name: "RehearseTesting", dependencies: ["RehearseCore"]),
        .target(name: "RehearseLayout", dependencies: ["RehearseCore"]),
        .target(name: "AutoScroll", dependencies: ["RehearseCore"], path: "Plugins/AutoScroll"),
        .target(name: "Panner", dependencies: ["RehearseCore"], path: "Plugins/Panner"),
        .target(name: "LoginAnimator", dependencies: ["RehearseCore", "RehearseLayout"], path: "Plugins/LoginAnimator"),
        .target(name: "Gateway", dependencies: ["RehearseCore"], path: "Plugins/Gateway"),
        .target(name: "RehearsePlugins", dependencies: ["RehearseCore", "AutoScroll", "Panner", "LoginAnimator", "Gateway"]),
        .target(name: "RehearseScenario", dependencies: ["RehearseCore", "RehearseLayout", "Yams"]),
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .target(name: "RehearseDBus", dependencies: ["CDBus", "RehearseCore", "RehearseScenario"]),
        .executableTarget(
            name: "rehearse",
            dependencies: [
                "RehearseCore",
                "RehearseScenario",
                "RehearsePlugins",
                "RehearseDBus",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RehearseCoreTests", dependencies: ["RehearseCore", "RehearseTesting"]),
        .testTarget(name: "RehearseTestingTests", dependencies: ["RehearseTesting"]),
        .testTarget(name: "RehearseLayoutTests", dependencies: ["RehearseLayout", "RehearseTesting"]),
        .testTarget(name: "AutoScrollTests", dependencies: ["AutoScroll", "RehearseTesting"]),
        .testTarget(name: "PannerTests", dependencies: ["Panner", "RehearseTesting"]),
        .testTarget(name: "LoginAnimatorTests", dependencies: ["LoginAnimator", "RehearseTesting"]),
        .testTarget(name: "GatewayTests", dependencies: ["Gateway", "RehearseTesting"]),
        .testTarget(name: "RehearseDBusTests", dependencies: ["RehearseDBus", "CDBus"]),
        .testTarget(name: "RehearseScenarioTests", dependencies: ["RehearseScenario", "RehearsePlugins"], exclude: ["Malformed", "MalformedExpectations.tsv"]),
        .testTarget(name: "rehearseTests", dependencies: ["rehearse"], exclude: ["junit.xsd", "dbus_client.py"]),
    ],
    swiftLanguageModes: [.v6]
)
