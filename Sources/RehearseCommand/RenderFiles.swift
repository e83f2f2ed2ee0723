import Foundation
import RehearseScenario

/// Writes what a run pictured: `DIR/<scenario>/filmstrip.svg`, `snapshot-<name>.svg` for each
/// `snapshot` step, and `plot.svg` when paths were plotted.
enum RenderFiles {
    static func write(_ results: [ScenarioResult], to folder: String) throws -> [String] {
        var written: [String] = []
        for result in results {
            let name = ((result.file as NSString).lastPathComponent as NSString).deletingPathExtension
            let directory = URL(fileURLWithPath: folder).appendingPathComponent(name)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var files: [(String, String)] = []
            if !result.filmstrip.isEmpty { files.append(("filmstrip.svg", SVGRenderer.filmstrip(result.filmstrip))) }
            for (snapshotName, snapshot) in result.snapshots {
                files.append(("snapshot-\(snapshotName).svg", SVGRenderer.document(snapshot)))
            }
            if !result.plots.isEmpty { files.append(("plot.svg", SVGRenderer.plot(result.plots))) }
            for (file, svg) in files {
                let url = directory.appendingPathComponent(file)
                try Data(svg.utf8).write(to: url)
                written.append(url.path)
            }
        }
        return written
    }
}
