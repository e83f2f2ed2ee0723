import Foundation
import RehearseScenario

/// Writes what a run pictured: `DIR/<scenario path>/filmstrip.svg`, `snapshot-<name>.svg` for each
/// `snapshot` step, `plot.svg` when paths were plotted, and `picture-<name>-diff.svg` for each
/// golden picture that did not match. The folder mirrors the scenario's path
/// (less its extension), so two scenarios of the same name in different folders never share one.
/// Nothing inside the folder is followed: a symbolic link planted there as a subfolder is refused,
/// one planted as a picture replaced (``OutputFolder``).
enum RenderFiles {
    static func write(_ results: [ScenarioResult], to folder: String) throws -> [String] {
        let output = try OutputFolder(creating: folder)
        var written: [String] = []
        for result in results {
            let directory = ReportPaths.mirrored(result.file)
            var files: [(String, String)] = []
            if !result.filmstrip.isEmpty { files.append(("filmstrip.svg", SVGRenderer.filmstrip(result.filmstrip))) }
            for (snapshotName, snapshot) in result.snapshots {
                files.append(("snapshot-\(snapshotName).svg", SVGRenderer.document(snapshot)))
            }
            if !result.plots.isEmpty { files.append(("plot.svg", SVGRenderer.plot(result.plots))) }
            for mismatch in result.pictureMismatches {
                files.append(("picture-\(mismatch.name)-diff.svg", SVGRenderer.diff(mismatch)))
            }
            for (file, svg) in files {
                written.append(try output.write(Data(svg.utf8), to: directory + "/" + file))
            }
        }
        return written
    }
}
