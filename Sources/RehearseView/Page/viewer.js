"use strict";
const viewer = { frames: 0, readOnly: false, hello: false, framesBeforeHello: 0, socket: null, frameWaiters: [], lastFrame: null, events: [] };
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
  viewer.hello = false;
  socket.onmessage = (message) => receive(JSON.parse(message.data));
  socket.onopen = () => { $("status").textContent = "connected"; };
  socket.onclose = () => { $("status").textContent = "disconnected: reconnecting…"; setTimeout(connect, 1000); };
}

function receive(message) {
  if (message.type === "hello") return hello(message);
  if (message.type === "timeline") return showTimeline(message.timeline);
  if (message.type === "error") { $("error").textContent = message.message; return; }
  if (message.type === "frame") {
    if (!viewer.hello) viewer.framesBeforeHello += 1;
    draw(message);
  }
}

/** The first message: whether the page may drive (a read-only page only watches, and does not
    scrub the run either) and the loaded run, if any. */
function hello(message) {
  viewer.readOnly = message.readOnly;
  viewer.hello = true;
  for (const control of document.querySelectorAll("button, select, #devicemotion, #scrub")) {
    control.disabled = message.readOnly;
  }
  showTimeline(message.timeline);
}

/** The loaded run's length and its marked moments (they come in a later message on a long run). */
function showTimeline(timeline) {
  if (!timeline || timeline.duration === undefined) return;
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

function draw(frame) {
  const screen = $("screen");
  screen.innerHTML = frame.svg;
  screen.classList.toggle("review", frame.review !== false);
  viewer.frames += 1;
  viewer.lastFrame = frame;
  const shown = frame.review !== false ? frame.review : frame.time;
  $("clock").textContent = shown.toFixed(3) + " s" + (frame.review !== false ? " (run)" : "");
  // A manual clock moves only when asked (Advance, the timeline): it is never "running".
  const clock = frame.mode === "manual" ? ["manual clock"] : [frame.mode + " clock", frame.paused ? "paused" : "running", frame.speed + "×"];
  $("status").textContent = [...clock, frame.orientation, frame.keyboard ? "keyboard up" : "keyboard down",
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

/**
 * The mouse (or a finger) on the screen is a finger on the simulated one: pressed, moved and
 * lifted as touch events in screen coordinates, so a click is a tap, a quick drag flings and
 * a press held still is a long press. Each pointer down (a phone's fingers) is a finger of its
 * own; a ctrl-drag is two fingers mirrored about where it began, 100 points apart at first: a
 * pinch. Each finger down is drawn as a dot.
 */
const screen = $("screen"), dots = new Map(), presses = new Map();
function svgOf() { return screen.querySelector("svg"); }
function screenPoint(event) {
  const svg = svgOf();
  return svg && new DOMPoint(event.clientX, event.clientY).matrixTransform(svg.getScreenCTM().inverse());
}
function touch(phase, id, point) {
  send({ type: "touch", phase: phase, id: id, x: point.x, y: point.y });
  drawFinger(phase, id, point);
}
function drawFinger(phase, id, point) {
  if (!dots.has(id)) {
    const dot = document.createElement("div");
    dot.className = "finger";
    document.body.appendChild(dot);
    dots.set(id, dot);
  }
  const dot = dots.get(id), svg = svgOf();
  const client = svg ? new DOMPoint(point.x, point.y).matrixTransform(svg.getScreenCTM()) : point;
  dot.style.left = client.x + "px";
  dot.style.top = client.y + "px";
  if (phase === "ended" || phase === "cancelled") { dot.remove(); dots.delete(id); }
}
/** The fingers a press moves: its own, or a pinch's two. */
function fingersOf(press, point) {
  if (!press.pinch) return [[press.id, point]];
  const spread = 50 + (point.x - press.start.x);
  return [[0, { x: press.start.x - spread, y: point.y }], [1, { x: press.start.x + spread, y: point.y }]];
}
function pointerPhase(phase, event) {
  const press = presses.get(event.pointerId), point = screenPoint(event);
  if (!press || !point) return;
  const fingers = fingersOf(press, point);
  if (phase === "moved" && fingers.length > 1) {
    // The fingers that move at once go as one touch event, so a pinch's distance never wobbles.
    send({ type: "moves", touches: fingers.map(([id, at]) => ({ id: id, x: at.x, y: at.y })) });
    for (const [id, at] of fingers) drawFinger(phase, id, at);
  } else {
    for (const [id, at] of fingers) touch(phase, id, at);
  }
  if (phase === "ended" || phase === "cancelled") presses.delete(event.pointerId);
}
screen.addEventListener("pointerdown", (event) => {
  const point = screenPoint(event);
  const pinching = [...presses.values()].some((press) => press.pinch);
  if (!point || viewer.readOnly || pinching || (event.ctrlKey && presses.size > 0) || presses.size >= 10) return;
  screen.setPointerCapture(event.pointerId);
  const taken = new Set([...presses.values()].map((press) => press.id));
  let id = 0;
  while (taken.has(id)) id += 1;
  presses.set(event.pointerId, { id: id, pinch: event.ctrlKey, start: point });
  pointerPhase("began", event);
  event.preventDefault();
});
screen.addEventListener("pointermove", (event) => pointerPhase("moved", event));
screen.addEventListener("pointerup", (event) => pointerPhase("ended", event));
screen.addEventListener("pointercancel", (event) => pointerPhase("cancelled", event));

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

/** The loaded run: moving the slider shows the scene at that time, simulated again off the service's thread. */
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
