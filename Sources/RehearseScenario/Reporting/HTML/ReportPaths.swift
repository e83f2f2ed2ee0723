import Foundation

/// Where a scenario's pictures and pages go inside an output folder: its path relative to the
/// working folder when it lies inside it, else its absolute path less the leading `/`, less its
/// extension, standardised, so that it has no `..`, stays inside the folder, and two files of the
/// same name never share a place.
public enum ReportPaths {
    /// `Scenarios/core/keyboard` for `Scenarios/core/keyboard.yaml`.
    public static func mirrored(_ file: String) -> String {
        let standardized = URL(fileURLWithPath: file).standardizedFileURL.deletingPathExtension().path
        let workingFolder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path + "/"
        let relative = standardized.hasPrefix(workingFolder) ? String(standardized.dropFirst(workingFolder.count)) : standardized
        return relative.split(separator: "/").filter { $0 != "." && $0 != ".." }.joined(separator: "/")
    }
}
