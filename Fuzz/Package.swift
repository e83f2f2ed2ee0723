// swift-tools-version: 6.1
import PackageDescription

/// libFuzzer targets for the scenario loader and for the D-Bus service's message handling, in their
/// own package so that ordinary builds of the main package never meet an executable without
/// `main`. See README.md for the commands.
let package = Package(
    name: "RehearseFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "Rehearse", path: "..")],
    targets: [
        .executableTarget(
            name: "ScenarioLoaderFuzzer",
            dependencies: [
                .product(name: "RehearseScenario", package: "Rehearse"),
                .product(name: "RehearseCore", package: "Rehearse"),
                .product(name: "RehearsePlugins", package: "Rehearse"),
            ]
        ),
        .executableTarget(
            name: "DBusMessageFuzzer",
            dependencies: [
                .product(name: "RehearseDBusService", package: "Rehearse"),
                .product(name: "RehearseScenario", package: "Rehearse"),
                .product(name: "RehearsePlugins", package: "Rehearse"),
            ]
        ),
        .executableTarget(name: "DBusFuzzSeeds", dependencies: [.product(name: "RehearseDBusService", package: "Rehearse")]),
    ]
)
