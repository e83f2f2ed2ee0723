/// The viewer's one page: served from the binary with its script (``ViewerScript``) and styles
/// (``ViewerStyle``) as files of their own, so the viewer needs no network, no CDN and no build
/// step, and its content policy allows no inline script at all.
enum ViewerPage {
    /// Only the page's own script and styles, served beside it, and its own server's WebSocket:
    /// no inline script or style, no other site, no plugin, no frame around it.
    static let contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Rehearse viewer</title>
    <link rel="stylesheet" href="/viewer.css">
    </head>
    <body>
    <div id="stage">
      <div id="screen" aria-label="the simulated screen: click to tap, drag to scroll, hold to long-press, ctrl-drag to pinch, type to enter text"></div>
      <div class="bar">
        <button id="play" data-command="play">Play</button>
        <button id="pause" data-command="pause">Pause</button>
        <button data-command="step" title="one display frame">Step</button>
        <select id="speed" title="simulated seconds per second">
          <option value="0.1">0.1×</option><option value="0.25">0.25×</option><option value="0.5">0.5×</option>
          <option value="1" selected>1×</option><option value="2">2×</option>
        </select>
        <button data-command="restart">Restart</button>
      </div>
      <div class="bar">
        <button data-rotate="portrait">Portrait</button>
        <button data-rotate="landscapeLeft">Landscape</button>
        <button id="keyboard">Keyboard</button>
        <button id="network">Network off</button>
        <button data-command="return">Return</button>
      </div>
      <div class="row"><div id="tiltpad" title="drag to tilt the device"><div id="tiltdot"></div></div>
        <label><input type="checkbox" id="devicemotion"> this device's motion</label></div>
      <div id="error" role="status"></div>
    </div>
    <div id="side">
      <section><h2>Clock</h2><div id="clock">0.000 s</div><div id="status">connecting…</div></section>
      <section id="timeline" hidden><h2>Run</h2><div id="runname"></div>
        <div id="markers"></div><input type="range" id="scrub" min="0" step="0.001" value="0">
        <div class="row"><button id="playrun">Play run</button><button id="live">Back to live</button><span id="scrubtime"></span></div></section>
      <section><h2>Plugin state</h2><pre id="state"></pre></section>
      <section><h2>Events</h2><div class="row"><input id="filter" placeholder="filter, e.g. keyboard">
        <label><input type="checkbox" id="ticks"> ticks</label></div><pre id="log"></pre></section>
    </div>
    <script src="/viewer.js"></script>
    </body>
    </html>
    """#
}
