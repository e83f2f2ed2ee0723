import Foundation
import IntegrationTestSupport
import Testing

/// The benchmark scripts as Benchmarks/README.md runs them: `ratios.py` prints the D-Bus scripts'
/// summary lines with their goals beside package-benchmark's figures, and the D-Bus scripts run
/// as commands.
@Suite struct BenchmarkScriptsTests {
    /// package-benchmark's markdown for one figure, then the lines `dbus/compare.sh`,
    /// `dbus/sessions.sh` and `dbus/sessions-cpu.py` end with, in one input, as
    /// `python3 ratios.py bench.md compare.txt ...` reads them.
    @Test func ratiosPrintsTheDBusScriptsFiguresWithTheirGoals() throws {
        let input = """
            ### Touch/fling of a 1,000-row scroll view/3 simulated seconds

            | Metric | p0 | p25 | p50 | p75 | p90 | p99 | p100 | Samples |
            |:-------|---:|---:|---:|---:|---:|---:|---:|---:|
            | Time (wall clock) (ns) * | 400,000 | 450,000 | 466,700 | 470,000 | 480,000 | 500,000 | 600,000 | 100 |

              Rehearse, peer,   sequential:                 calls_per_second: 24861
            ratio: D-Bus through the daemon, sequential, Rehearse / C echo: 0.97
            ratio: D-Bus peer-to-peer, sequential, Rehearse / C echo: 0.79
            ratio: D-Bus peer-to-peer with no bus, sequential, Rehearse / C echo: 1.62
            form medians: one 1232, two 1297 cycles/s: 1.05x
            ratio: two sessions / one, form (sessions.sh): 1.05
            ratio: two sessions / one, form (sessions-cpu.py): 1.12
            ratio: two sessions / one at most on two cores, form (sessions-cpu.py): 1.23
            ratio: two sessions, share of what two cores do, form (sessions-cpu.py): 0.91
            ratio: CPU per cycle, two sessions / one, form (sessions-cpu.py): 1.20
            """
        let file = try Rehearse.scenario(input, named: "figures.txt")
        let result = try Rehearse.python(["Benchmarks/ratios.py", file.path])
        #expect(result.status == 0, "\(result.errorOutput)")
        #expect(
            result.output.split(separator: "\n") == [
                "Touch/fling of a 1,000-row scroll view/3 simulated seconds: 466.7 us = 6,428x real time (goal: >= 10,000x)",
                "D-Bus through the daemon, sequential, Rehearse / C echo: 0.97 (goal: >= 0.9: met)",
                "D-Bus peer-to-peer, sequential, Rehearse / C echo: 0.79 (goal: >= 0.95: not met)",
                "D-Bus peer-to-peer with no bus, sequential, Rehearse / C echo: 1.62 (goal: >= 0.95: met)",
                "two sessions / one, form (sessions.sh): 1.05 (no goal)",
                "two sessions / one, form (sessions-cpu.py): 1.12 (no goal)",
                "two sessions / one at most on two cores, form (sessions-cpu.py): 1.23 (no goal)",
                "two sessions, share of what two cores do, form (sessions-cpu.py): 0.91 (goal: >= 0.85: met)",
                "CPU per cycle, two sessions / one, form (sessions-cpu.py): 1.20 (goal: <= 1.1: not met)",
            ], "\(result.output)")
    }

    /// Input with neither kind of figure is refused with a message that says what to give.
    @Test func ratiosRefusesInputWithNoFigures() throws {
        let file = try Rehearse.scenario("medians of 5 rounds\n", named: "figures.txt")
        let result = try Rehearse.python(["Benchmarks/ratios.py", file.path])
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(result.errorOutput.contains("dbus/compare.sh"), "\(result.errorOutput)")
    }

    /// Every `Benchmarks/dbus/*.sh` runs as a command, as the README writes them.
    @Test func theDBusScriptsAreExecutable() throws {
        let folder = Rehearse.packageRoot.appendingPathComponent("Benchmarks/dbus")
        let scripts = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".sh") }
        #expect(scripts.count >= 5)
        for script in scripts {
            #expect(FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent(script).path), "\(script)")
        }
    }
}
