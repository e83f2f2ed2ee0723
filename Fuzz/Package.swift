// swift-tools-version: 6.1
import PackageDescription

/// A libFuzzer target for the scenario loader, in its own package so that ordinary builds of the
/// main package never meet an executable without `main`. See README.md for the command.
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
    ]
)
