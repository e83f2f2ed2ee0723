/// The viewer's one page, with its styles and script: served from the binary, so the viewer needs
/// no network, no CDN and no build step.
enum ViewerPage {
    /// Only the page's own inline script and styles, and its own server's WebSocket.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'"

    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Rehearse viewer</title>
    <style>
      :root { font: 14px system-ui, sans-serif; color: #222; background: #eceef1; }
      body { margin: 0; display: flex; gap: 16px; padding: 16px; align-items: flex-start; flex-wrap: wrap; }
      #stage { display: flex; flex-direction: column; gap: 8px; align-items: center; }
      #screen { background: #111; padding: 14px; border-radius: 28px; box-shadow: 0 4px 18px #0003; line-height: 0; }
      #screen svg { cursor: pointer; background: #fff; max-height: 80vh; width: auto; }
      #screen.review svg { outline: 3px solid #e6a700; }
      .bar { display: flex; gap: 6px; flex-wrap: wrap; justify-content: center; max-width: 420px; }
      button, select { font: inherit; padding: 4px 9px; border: 1px solid #aab; border-radius: 6px; background: #fff; cursor: pointer; }
      button:disabled, select:disabled { opacity: .45; cursor: default; }
      #side { flex: 1; min-width: 320px; max-width: 640px; display: flex; flex-direction: column; gap: 10px; }
      section { background: #fff; border-radius: 10px; padding: 10px 12px; box-shadow: 0 1px 3px #0001; }
      h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: #667; margin: 0 0 6px; }
      #clock { font: 600 20px ui-monospace, monospace; }
      #status { color: #556; }
      #state { font: 12px ui-monospace, monospace; white-space: pre-wrap; margin: 0; max-height: 180px; overflow: auto; }
      #log { font: 12px ui-monospace, monospace; height: 220px; overflow: auto; margin: 0; white-space: pre; }
      #tiltpad { width: 120px; height: 120px; border-radius: 50%; background: radial-gradient(#fff, #cfd6e0); border: 1px solid #99a; position: relative; touch-action: none; }
      #tiltdot { position: absolute; width: 16px; height: 16px; border-radius: 50%; background: #0a64d8; left: 52px; top: 52px; pointer-events: none; }
      #timeline input { width: 100%; }
      #markers { position: relative; height: 14px; }
      #markers span { position: absolute; top: 2px; width: 2px; height: 10px; }
      #markers .event { background: #8899aa; } #markers .expectation { background: #0a8a3a; } #markers .failure { background: #d22; }
      #error { color: #b00; min-height: 1em; }
      .row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
    </style>
    </head>
    <body>
    <div id="stage">
      <div id="screen" aria-label="the simulated screen: click to tap, type to enter text"></div>
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
    <script>
    "use strict";
    const viewer = { frames: 0, readOnly: false, socket: null, frameWaiters: [], lastFrame: null, events: [] };
    window.viewer = viewer;
    const $ = (id) => document.getElementById(id);
    const maxLogLines = 1000;

    function send(command) {
      if (viewer.socket && viewer.socket.readyState === WebSocket.OPEN) viewer.socket.send(JSON.stringify(command));
    }
    viewer.send = send;
    /** Resolves with the next frame the page draws. */
    viewer.nextFrame = () => new Promise((resolve) => viewer.frameWaiters.push(resolve));

    function connect() {
      const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
      viewer.socket = socket;
      socket.onmessage = (message) => receive(JSON.parse(message.data));
      socket.onopen = () => { $("status").textContent = "connected"; };
      socket.onclose = () => { $("status").textContent = "disconnected: reconnecting…"; setTimeout(connect, 1000); };
    }

    function receive(message) {
      if (message.type === "hello") return hello(message);
      if (message.type === "error") { $("error").textContent = message.message; return; }
      if (message.type === "frame") draw(message);
    }

    function hello(message) {
      viewer.readOnly = message.readOnly;
      for (const control of document.querySelectorAll("button, select, #devicemotion")) {
        if (!control.closest("#timeline")) control.disabled = message.readOnly;
      }
      const timeline = message.timeline;
      if (timeline && timeline.duration !== undefined) {
        $("timeline").hidden = false;
        $("runname").textContent = timeline.name;
        $("scrub").max = timeline.duration;
        const markers = $("markers");
        markers.replaceChildren();
        for (const marker of timeline.markers) {
          const span = document.createElement("span");
          span.className = marker.kind;
          span.style.left = (100 * marker.time / Math.max(timeline.duration, 1e-9)) + "%";
          span.title = marker.time.toFixed(3) + " s " + marker.label;
          markers.append(span);
        }
      }
    }

    function draw(frame) {
      const screen = $("screen");
      screen.innerHTML = frame.svg;
      screen.classList.toggle("review", frame.review !== false);
      viewer.frames += 1;
      viewer.lastFrame = frame;
      const shown = frame.review !== false ? frame.review : frame.time;
      $("clock").textContent = shown.toFixed(3) + " s" + (frame.review !== false ? " (run)" : "");
      $("status").textContent = [frame.mode + " clock", frame.paused ? "paused" : "running", frame.speed + "×",
        frame.orientation, frame.keyboard ? "keyboard up" : "keyboard down",
        frame.firstResponder ? "typing into " + frame.firstResponder : "no text field focused"].join(" · ");
      $("state").textContent = Object.entries(frame.state).map(([id, state]) => id + "  " + describe(state)).join("\n");
      for (const line of frame.events) viewer.events.push(logLine(line));
      if (frame.droppedEvents) viewer.events.push("… " + frame.droppedEvents + " more events");
      if (viewer.events.length > maxLogLines) viewer.events.splice(0, viewer.events.length - maxLogLines);
      if (frame.events.length) showLog();
      const waiters = viewer.frameWaiters;
      viewer.frameWaiters = [];
      for (const resolve of waiters) resolve(frame);
    }

    /** Fields as `key: value, ...`. */
    function describe(fields) {
      return Object.entries(fields).map(([key, value]) => key + ": " + JSON.stringify(value)).join(", ");
    }

    /** A trace line as the log shows it: time, sequence number, name, fields. */
    function logLine(line) {
      const event = JSON.parse(line);
      const fields = describe(event.fields);
      return event.time.toFixed(3).padStart(9) + "  #" + event.seq + "  " + event.name + (fields ? "  " + fields : "");
    }

    function showLog() {
      const filter = $("filter").value.trim();
      const ticks = $("ticks").checked;
      const lines = viewer.events.filter((line) => (ticks || !line.includes("  tick")) && (!filter || line.includes(filter)));
      const log = $("log");
      log.textContent = lines.slice(-300).join("\n");
      log.scrollTop = log.scrollHeight;
    }
    $("filter").addEventListener("input", showLog);
    $("ticks").addEventListener("change", showLog);

    /** A click on the screen is a tap at that point in screen coordinates. */
    $("screen").addEventListener("click", (event) => {
      const svg = $("screen").querySelector("svg");
      if (!svg || viewer.readOnly) return;
      const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
      send({ type: "tap", x: point.x, y: point.y });
    });

    /** Keys go to the first responder: characters as text, Enter as return. */
    document.addEventListener("keydown", (event) => {
      if (viewer.readOnly || event.target.closest("input, select")) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === "Enter") { send({ type: "return" }); event.preventDefault(); }
      else if (event.key.length === 1) { send({ type: "text", text: event.key }); event.preventDefault(); }
    });

    for (const button of document.querySelectorAll("[data-command]")) {
      button.addEventListener("click", () => send({ type: button.dataset.command }));
    }
    for (const button of document.querySelectorAll("[data-rotate]")) {
      button.addEventListener("click", () => send({ type: "rotate", to: button.dataset.rotate }));
    }
    $("speed").addEventListener("change", () => send({ type: "speed", value: Number($("speed").value) }));
    $("keyboard").addEventListener("click", () => send({ type: "keyboard", show: !(viewer.lastFrame && viewer.lastFrame.keyboard) }));
    let online = true;
    $("network").addEventListener("click", () => {
      online = !online;
      $("network").textContent = online ? "Network off" : "Network on";
      send({ type: "network", online });
    });

    /** The tilt pad: the dot's offset from the centre is a rotation rate, sent 30 times a second while held. */
    const pad = $("tiltpad"), dot = $("tiltdot");
    let tilt = null, tiltTimer = null;
    function setTilt(event) {
      const box = pad.getBoundingClientRect();
      const dx = Math.max(-1, Math.min(1, (event.clientX - box.left - box.width / 2) / (box.width / 2)));
      const dy = Math.max(-1, Math.min(1, (event.clientY - box.top - box.height / 2) / (box.height / 2)));
      tilt = { x: dy * 3, y: dx * 3 };
      dot.style.left = (52 + dx * 52) + "px";
      dot.style.top = (52 + dy * 52) + "px";
    }
    pad.addEventListener("pointerdown", (event) => {
      if (viewer.readOnly) return;
      pad.setPointerCapture(event.pointerId);
      setTilt(event);
      send({ type: "motion", x: tilt.x, y: tilt.y, z: 0 });
      tiltTimer = setInterval(() => tilt && send({ type: "motion", x: tilt.x, y: tilt.y, z: 0 }), 33);
    });
    pad.addEventListener("pointermove", (event) => { if (tiltTimer) setTilt(event); });
    function endTilt() {
      clearInterval(tiltTimer);
      tiltTimer = null;
      tilt = null;
      dot.style.left = dot.style.top = "52px";
    }
    pad.addEventListener("pointerup", endTilt);
    pad.addEventListener("pointercancel", endTilt);

    /** On a phone, its own motion drives the simulated one (rates come in degrees per second). */
    function deviceMotion(event) {
      const rate = event.rotationRate;
      if (!rate) return;
      const radians = (degrees) => (degrees || 0) * Math.PI / 180;
      send({ type: "motion", x: radians(rate.beta), y: radians(rate.gamma), z: radians(rate.alpha) });
    }
    $("devicemotion").addEventListener("change", async (event) => {
      if (!event.target.checked) return window.removeEventListener("devicemotion", deviceMotion);
      if (typeof DeviceMotionEvent !== "undefined" && DeviceMotionEvent.requestPermission) await DeviceMotionEvent.requestPermission();
      window.addEventListener("devicemotion", deviceMotion);
    });

    /** The loaded run: moving the slider shows the scene at that time, simulated again from the start. */
    let runTimer = null;
    $("scrub").addEventListener("input", () => {
      $("scrubtime").textContent = Number($("scrub").value).toFixed(3) + " s";
      send({ type: "scrub", value: Number($("scrub").value) });
    });
    $("live").addEventListener("click", () => { clearInterval(runTimer); runTimer = null; send({ type: "live" }); });
    $("playrun").addEventListener("click", () => {
      clearInterval(runTimer);
      const slider = $("scrub"), start = performance.now(), from = Number(slider.value) >= Number(slider.max) ? 0 : Number(slider.value);
      runTimer = setInterval(() => {
        const time = Math.min(from + (performance.now() - start) / 1000, Number(slider.max));
        slider.value = time;
        slider.dispatchEvent(new Event("input"));
        if (time >= Number(slider.max)) { clearInterval(runTimer); runTimer = null; }
      }, 50);
    });

    connect();
    </script>
    </body>
    </html>
    """#
}
