import Foundation

extension HTMLReport {
    /// The longest page name written, in UTF-8 bytes, less `-N.html`: a file name may take 255, and
    /// a page's name and its temporary file's must fit too.
    public static let maximumPageNameBytes = 200

    /// The pages of `files`, relative to the report's folder, in their order: `scenarios/` and the
    /// file's mirrored path (``ReportPaths``) with `.html`, its name cut to ``maximumPageNameBytes``,
    /// and `-2`, `-3`, ... added where an earlier file has that page already (`a.yaml` and `a.yml`,
    /// a file outside the working folder and one inside it that mirror alike, names that differ
    /// only in case, which are one file once a report is unpacked on macOS or Windows), so that no
    /// scenario's page replaces another's.
    public static func pagePaths(of files: [String]) -> [String] {
        var taken = Set<String>()
        return files.map { file in
            var names = ReportPaths.mirrored(file).split(separator: "/").map(String.init)
            let stem = String((names.popLast() ?? "scenario").prefix(utf8Bytes: maximumPageNameBytes))
            let base = (["scenarios"] + names + [stem]).joined(separator: "/")
            var page = base + ".html"
            var copy = 1
            while !taken.insert(page.lowercased()).inserted {
                copy += 1
                page = base + "-\(copy).html"
            }
            return page
        }
    }

    /// `page` (a path relative to the report's folder) as a link's address: each name
    /// percent-encoded but for RFC 3986's unreserved characters, so that `#`, `?`, `%`, a quote
    /// or a line break in a file's name neither breaks the link nor changes where it leads.
    static func href(_ page: String) -> String {
        page.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }.joined(separator: "/")
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
