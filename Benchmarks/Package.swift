// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "RehearseBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Rehearse", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [
                .product(name: "RehearseCore", package: "Rehearse"),
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ],
            path: "Benchmarks/CoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "ExploreBenchmarks",
            dependencies: [
                .product(name: "RehearseScenario", package: "Rehearse"),
                .product(name: "RehearsePlugins", package: "Rehearse"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/ExploreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        .executableTarget(
            name: "ReportBenchmarks",
            dependencies: [
                .product(name: "RehearseScenario", package: "Rehearse"),
                .product(name: "RehearsePlugins", package: "Rehearse"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/ReportBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // Issue 28: remote plugins over peer-to-peer D-Bus, beside the same plugin in Swift.
        .executableTarget(
            name: "RemotePluginBenchmarks",
            dependencies: [
                "CountingPlugin",
                .product(name: "RehearsePluginHost", package: "Rehearse"),
                .product(name: "RehearseScenario", package: "Rehearse"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/RemotePluginBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        ),
        // The remote plugin RemotePluginBenchmarks starts: C with libdbus, built beside it.
        .executableTarget(name: "CountingPlugin", dependencies: ["LibDBus"], path: "Sources/CountingPlugin"),
        .systemLibrary(name: "LibDBus", path: "Sources/LibDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // Driven by layout/compare.py, which runs kiwisolver on the same systems in the same run.
        .executableTarget(
            name: "LayoutSolverComparison",
            dependencies: [.product(name: "RehearseLayout", package: "Rehearse")],
            path: "Sources/LayoutSolverComparison"
        ),
    ]
)
