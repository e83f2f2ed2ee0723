/// The viewer's one page, `viewer.html`, with its script, `viewer.js`, and styles, `viewer.css`:
/// files of their own in this folder (so that tools for HTML, JavaScript and CSS can check them),
/// built into the binary (the viewer needs no network, no CDN, no build step, and no file beside
/// the binary) and served as three files, so that the content policy allows no inline script.
enum ViewerPage {
    /// Only the page's own script and styles, served beside it, and its own server's WebSocket:
    /// no inline script or style, no other site, no plugin, no frame around it.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The page, served as `/`.
    static let html = String(decoding: PackageResources.viewer_html, as: UTF8.self)
    /// The page's script, served as `/viewer.js`: connects to `/ws`, draws each frame and sends the
    /// person's clicks, keys and tilts as commands.
    static let script = String(decoding: PackageResources.viewer_js, as: UTF8.self)
    /// The page's styles, served as `/viewer.css`.
    static let style = String(decoding: PackageResources.viewer_css, as: UTF8.self)
}
