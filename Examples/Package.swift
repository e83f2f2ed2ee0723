// swift-tools-version: 6.1
import PackageDescription

// A package of one's own plugins, as a user writes it: Rehearse by its repository and a version.
// REHEARSE_URL points it at another copy of Rehearse; scripts/check-examples builds this package
// against a tagged clone of the checkout it sits in, so CI builds it exactly as a user would.
let rehearseURL = Context.environment["REHEARSE_URL"] ?? "https://github.com/rehearse-sim/rehearse"
let rehearseVersion: Version = "0.3.0"

let package = Package(
    name: "ShakeExample",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ShakeDetector", targets: ["ShakeDetector"]),
        .executable(name: "shake-rehearse", targets: ["shake-rehearse"]),
    ],
    dependencies: [
        // Without the live viewer (`traits: []` leaves out the default `Viewer` trait): no SwiftNIO or
        // Hummingbird to build; `shake-rehearse` has every subcommand but `view` and `serve --http`.
        .package(url: rehearseURL, from: rehearseVersion, traits: [])
    ],
    targets: [
        // The plugin: depends on the core only, as every plugin does.
        .target(name: "ShakeDetector", dependencies: [.product(name: "RehearseCore", package: "rehearse")]),
        // This package's own `rehearse`: every subcommand, knowing the shipped plugins and this one.
        .executableTarget(
            name: "shake-rehearse",
            dependencies: [
                "ShakeDetector",
                .product(name: "RehearseCommand", package: "rehearse"),
            ]),
        .testTarget(
            name: "ShakeDetectorTests",
            dependencies: [
                "ShakeDetector",
                .product(name: "RehearseTesting", package: "rehearse"),
                // Composing with a shipped plugin: the panner pans while the detector watches the same motion.
                .product(name: "Panner", package: "rehearse"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
