"""Drives `rehearse view` (and `serve --http`) in a real headless Chromium through Selenium, as a
person would: clicks on the drawn screen, types, drags the tilt pad, and reads what the page drew
from its DOM (every node is an SVG group with data-id and its on-screen frame as data-x/y/w/h).

usage: viewer_browser.py REHEARSE OUTPUT_DIR login|panner|scroll|dbus|zoom|hostile
Prints one "ok: ..." line per check; exits 1 with the reason on the first failure."""

import base64
import json
import os
import socket
import subprocess
import sys
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.by import By

from browser_support import axe_violations, browser, fail, wait

REHEARSE, OUTPUT, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PASSWORD = "correct horse battery"


def start(arguments):
    """Starts rehearse and returns it with the viewer's URL from its readiness line."""
    process = subprocess.Popen([REHEARSE] + arguments, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    for word in line.split():
        if word.startswith("http://"):
            return process, word
    process.kill()
    fail("no viewer address in %r (stderr: %s)" % (line, process.stderr.read()))


def frame_of(driver, node):
    return driver.execute_script(
        "const g = document.querySelector('#screen [data-id=\"%s\"]');"
        "return g && {x: +g.dataset.x, y: +g.dataset.y, w: +g.dataset.w, h: +g.dataset.h};" % node)


def click(driver, node):
    """Clicks the middle of a drawn node where the browser shows it, as a person would (the page
    turns it into a tap). By position: the drawing is replaced on every frame."""
    x, y = driver.execute_script(
        "const box = document.querySelector('#screen [data-id=\"%s\"] rect').getBoundingClientRect();"
        "return [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)];" % node)
    actions = ActionBuilder(driver)
    actions.pointer_action.move_to_location(x, y).click()
    actions.perform()


def received_frames(driver):
    """The text of every WebSocket message the page received, from the DevTools log."""
    payloads = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.webSocketFrameReceived":
            payloads.append(message["params"]["response"]["payloadData"])
    return payloads


def login(driver):
    process, url = start(["view", "Scenarios/login-animator/keyboard-lifts-form.yaml", "--http", "127.0.0.1:0"])
    try:
        driver.get(url)
        wait(driver, "the first frame", "window.viewer.frames > 0")
        title = frame_of(driver, "title")
        if title["y"] != 120:
            fail("the title starts at y %s, not 120" % title["y"])
        print("ok: the page drew the paper-login scene, title at y 120")
        inline = driver.execute_script("return document.querySelectorAll('script:not([src])').length")
        violations = [entry["message"] for entry in driver.get_log("browser") if "Content Security Policy" in entry["message"]]
        if inline or violations:
            fail("the page has %d inline scripts; content policy violations: %s" % (inline, violations))
        print("ok: the page's script is /viewer.js, no inline script, and the content policy blocked nothing")
        click(driver, "username")
        wait(driver, "the keyboard", "document.querySelector('#screen [data-id=keyboard]') !== null")
        wait(driver, "the title at y 70", "document.querySelector('#screen [data-id=title]').dataset.y === '70'")
        print("ok: clicking the username field raised the keyboard and moved the title to y 70")
        ActionChains(driver).send_keys("vijay").perform()
        wait(driver, "the typed name", "document.querySelector('#screen [data-id=username] text').textContent === 'vijay'")
        print("ok: typing reached the username field")
        click(driver, "password")
        wait(driver, "the password focused", "window.viewer.lastFrame.firstResponder === 'password'")
        ActionChains(driver).send_keys(PASSWORD).perform()
        dots = "\u2022" * len(PASSWORD)
        wait(driver, "the password as dots", "document.querySelector('#screen [data-id=password] text').textContent === '%s'" % dots)
        frames = received_frames(driver)
        if not frames:
            fail("the DevTools log shows no WebSocket frame")
        leaks = [frame for frame in frames if "correct horse" in frame]
        if leaks or "correct horse" in driver.page_source:
            fail("the clear password reached the page: %s" % (leaks[:1] or "in the DOM"))
        print("ok: the password shows as %d dots; none of %d frames the page received holds it" % (len(PASSWORD), len(frames)))
        wait(driver, "the timeline", "!document.getElementById('timeline').hidden")
        markers = driver.execute_script("return document.querySelectorAll('#markers span').length")
        driver.execute_script("const s = document.getElementById('scrub'); s.value = 0; s.dispatchEvent(new Event('input'));")
        wait(driver, "the run at 0 s", "window.viewer.lastFrame.review === 0 && document.querySelector('#screen [data-id=title]').dataset.y === '120'")
        print("ok: the run's timeline has %d markers; scrubbed to 0 s it shows the title at y 120" % markers)
        driver.execute_script("document.getElementById('live').click()")
        wait(driver, "back to live", "window.viewer.lastFrame.review === false")
        early = driver.execute_script("return window.viewer.framesBeforeHello")
        if early:
            fail("%d frames came before the page's hello" % early)
        driver.save_screenshot(os.path.join(OUTPUT, "viewer-login.png"))
        print("ok: screenshot " + os.path.join(OUTPUT, "viewer-login.png"))
        violations = axe_violations(driver)
        if violations:
            fail("axe-core found violations:\n" + "\n".join(violations))
        print("ok: axe-core finds no violation on the page, its keyboard up and its run's timeline shown")
    finally:
        process.kill()


def panner(driver):
    process, url = start(["view", "--plugins", "panner", "--http", "127.0.0.1:0"])
    try:
        driver.get(url)
        wait(driver, "the first frame", "window.viewer.frames > 0")
        before = frame_of(driver, "image")
        pad = driver.find_element(By.ID, "tiltpad")
        ActionChains(driver).click_and_hold(pad).move_by_offset(45, 0).pause(1.0).release().perform()
        after = wait(driver, "the photo panned",
                     "(() => { const g = document.querySelector('#screen [data-id=image]'); return +g.dataset.x > %s && [+g.dataset.x]; })()"
                     % before["x"])[0]
        # The pad held right of its centre is a positive y rotation rate: the photo moves right, towards its left end.
        print("ok: dragging the tilt pad panned the photo from x %s to x %s" % (before["x"], after))
        driver.save_screenshot(os.path.join(OUTPUT, "viewer-panner.png"))
        print("ok: screenshot " + os.path.join(OUTPUT, "viewer-panner.png"))
    finally:
        process.kill()


def dbus(driver):
    process, url = start(["serve", "--address", os.environ["DBUS_SESSION_BUS_ADDRESS"], "--plugins", "login-animator",
                          "--http", "127.0.0.1:0"])
    try:
        driver.get(url)
        wait(driver, "the first frame", "window.viewer.frames > 0")
        call = subprocess.run(["gdbus", "call", "--session", "--dest", "org.rehearse.Simulator", "--object-path",
                               "/org/rehearse/Simulator", "--method", "org.rehearse.Simulator1.Inject", "tap",
                               "{'target': <'username'>}"], capture_output=True, text=True, timeout=10)
        if call.returncode != 0:
            fail("gdbus Inject: " + call.stderr)
        wait(driver, "the injected tap on the page", "window.viewer.lastFrame.firstResponder === 'username'")
        wait(driver, "its event in the log", "window.viewer.events.some((line) => line.includes('  tap  '))")
        print("ok: a gdbus Inject (%s) showed on the page: username focused, the tap in the event log" % call.stdout.strip())
        monitor = subprocess.Popen(["gdbus", "monitor", "--session", "--dest", "org.rehearse.Simulator"],
                                   stdout=subprocess.PIPE, text=True)
        time.sleep(0.5)
        click(driver, "password")
        wait(driver, "the page's tap", "window.viewer.lastFrame.firstResponder === 'password'")
        time.sleep(0.5)
        monitor.kill()
        signals = monitor.stdout.read()
        if "'tap'" not in signals or "password" not in signals:
            fail("the page's tap did not reach D-Bus as an Event signal: %s" % signals[:400])
        print("ok: a click on the page reached D-Bus as an Event signal")
    finally:
        process.kill()


def upgrade(url, origin=None, host_name=None):
    """Opens a WebSocket to the viewer by hand; returns the socket and the status line."""
    host, port = url[len("http://"):].rstrip("/").rsplit(":", 1)
    connection = socket.create_connection((host, int(port)), timeout=5)
    key = base64.b64encode(os.urandom(16)).decode()
    request = ("GET /ws HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n" % (host_name or host, port, key))
    if origin:
        request += "Origin: %s\r\n" % origin
    connection.sendall((request + "\r\n").encode())
    response = b""
    while b"\r\n\r\n" not in response:
        chunk = connection.recv(4096)
        if not chunk:
            break
        response += chunk
    # What came after the response's headers in the same reads is the start of the first frames
    # (on a busy machine the hello often arrives with the 101): kept for `read_until`.
    head, _, rest = response.partition(b"\r\n\r\n")
    if rest:
        EARLY_BYTES[connection] = rest
    return connection, head.split(b"\r\n", 1)[0].decode()


# Frame bytes `upgrade` read with the response's headers, by socket.
EARLY_BYTES = {}


def send_text(connection, text):
    """Sends one masked text frame (clients must mask)."""
    payload = text.encode()
    mask = os.urandom(4)
    header = bytes([0x81])
    if len(payload) < 126:
        header += bytes([0x80 | len(payload)])
    else:
        header += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    connection.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))


def read_until(connection, needle, seconds=5):
    """The payloads of the server's frames (a long message comes in several, with frame headers
    between them on the wire), joined, until `needle` is in them or `seconds` pass."""
    connection.settimeout(seconds)
    wire, payloads = take_frames(EARLY_BYTES.pop(connection, b""))
    deadline = time.time() + seconds
    while needle.encode() not in payloads and time.time() < deadline:
        try:
            chunk = connection.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        wire, more = take_frames(wire + chunk)
        payloads += more
    return payloads


def take_frames(wire):
    """The complete frames at the start of `wire`: (what is left, their payloads joined)."""
    payloads = b""
    while len(wire) >= 2:
        length, start = wire[1] & 0x7F, 2
        if length == 126:
            length, start = (int.from_bytes(wire[2:4], "big") if len(wire) >= 4 else -1), 4
        elif length == 127:
            length, start = (int.from_bytes(wire[2:10], "big") if len(wire) >= 10 else -1), 10
        if length < 0 or len(wire) < start + length:
            break
        payloads += wire[start:start + length]
        wire = wire[start + length:]
    return wire, payloads


def closed(connection, seconds=5):
    """Whether the server closes `connection` within `seconds` (a close frame, then the end; or a reset)."""
    connection.settimeout(seconds)
    while True:
        try:
            if not connection.recv(65536):
                return True
        except socket.timeout:
            return False
        except ConnectionResetError:
            return True


def hostile(_driver):
    process, url = start(["view", "--plugins", "login-animator", "--http", "127.0.0.1:0"])
    try:
        _, status = upgrade(url, origin="http://evil.example")
        if " 101 " in status:
            fail("a page from another site was let in: " + status)
        port = url.rstrip("/").rsplit(":", 1)[1]
        for name in ["rebound.example", "127.evil.example", "localhost.evil.example", "localhost.", "0x7f.1", "2130706433"]:
            _, rebound = upgrade(url, origin="http://%s:%s" % (name, port), host_name=name)
            if " 101 " in rebound:
                fail("a page whose name %s points at 127.0.0.1 (DNS rebinding) was let in: %s" % (name, rebound))
        print("ok: upgrades from another site's page (%s) and from rebound names such as 127.evil.example (%s) are refused"
              % (status, rebound))
        connection, status = upgrade(url, origin=url.rstrip("/"))
        if " 101 " not in status:
            fail("the viewer's own origin was refused: " + status)
        send_text(connection, json.dumps({"type": "tap", "x": 1e6, "y": 10}))
        send_text(connection, json.dumps({"type": "teleport"}))
        send_text(connection, json.dumps({"type": "text", "text": "x" * 300}))
        replies = read_until(connection, "text needs text")
        for expected in ["needs x", "unknown command 'teleport'", "text needs text, 1 to 256 characters"]:
            if expected.encode() not in replies:
                fail("no error reply %r to a bad command: %r" % (expected, replies[-300:]))
        print("ok: bad commands get error replies that say what is wrong (x 1e6, an unknown command, 300 characters of text)")
        unmasked, status = upgrade(url)
        unmasked.sendall(bytes([0x81, 15]) + b'{"type":"play"}')
        if not closed(unmasked):
            fail("the socket of an unmasked frame was not closed")
        print("ok: an unmasked frame from a client ends its socket (RFC 6455 section 5.1)")
        send_text(connection, "x" * 5000)
        if not closed(connection):
            fail("the socket of a 5,000-byte message was not closed")
        fresh, status = upgrade(url)
        if " 101 " not in status:
            fail("after a 5,000-byte message the viewer serves no one: " + status)
        # A page's first frame comes within a frame interval; 20 s is for a machine so busy that
        # this test was once starved past 5 s (three builds and the suite's Chromium on two cores).
        if b'"type":"frame"' not in read_until(fresh, '"type":"frame"', seconds=20):
            fail("a new page got no frame after the oversized message")
        print("ok: a 5,000-byte message (the limit is 4,096) ends that page's socket; the next page is served")
        extra = [upgrade(url)[0] for _ in range(20)]  # with `fresh`, 21 pages
        statuses = []
        for connection in extra:
            data = read_until(connection, '"type":"frame"', seconds=1)
            statuses.append(b'"type":"frame"' in data)
        if all(statuses):
            fail("all of 21 pages were served; the limit is 16")
        print("ok: %d of 20 more pages were served before the limit of 16 pages" % statuses.count(True))
    finally:
        process.kill()
    process, url = start(["view", "Scenarios/login-animator/keyboard-lifts-form.yaml", "--read-only", "--http", "127.0.0.1:0"])
    try:
        connection, _ = upgrade(url)
        send_text(connection, json.dumps({"type": "tap", "x": 160, "y": 190}))
        replies = read_until(connection, "read-only")
        if b'"readOnly":true' not in replies or b"this viewer is read-only" not in replies:
            fail("a read-only viewer took a tap: %r" % replies[-300:])
        send_text(connection, json.dumps({"type": "scrub", "value": 0.1}))
        replies = read_until(connection, "read-only")
        if b"this viewer is read-only" not in replies or b'"review":0.1' in replies:
            fail("a read-only viewer's page scrubbed the run: %r" % replies[-300:])
        print("ok: a --read-only viewer says so in its hello and refuses a tap and a scrub")
    finally:
        process.kill()


def content_y(driver):
    return driver.execute_script("return +document.querySelector('#screen [data-id=content]').dataset.y")


def mouse_drag(driver, start, steps, pause, hold):
    """Presses the mouse at `start` (page pixels), moves it by each of `steps` with `pause`
    seconds after each, rests `hold` seconds and lets go; returns how many finger dots the page
    drew while the button was down."""
    actions = ActionBuilder(driver, duration=0)
    actions.pointer_action.move_to_location(*start).pointer_down()
    actions.perform()
    x, y = start
    for dx, dy in steps:
        x, y = x + dx, y + dy
        actions = ActionBuilder(driver, duration=0)
        actions.pointer_action.move_to_location(x, y)
        actions.perform()
        time.sleep(pause)
    dots = driver.execute_script("return document.querySelectorAll('.finger').length")
    time.sleep(hold)
    actions = ActionBuilder(driver, duration=0)
    actions.pointer_action.pointer_up()
    actions.perform()
    return dots


def two_fingers(driver, first_at, second_at, moves):
    """Two touch pointers (a phone's fingers) down at their points, moved 40 ms a step through
    `moves` (pairs of points), and lifted."""
    builder = ActionBuilder(driver)
    first = builder.add_pointer_input(interaction.POINTER_TOUCH, "first")
    second = builder.add_pointer_input(interaction.POINTER_TOUCH, "second")
    first.create_pointer_move(x=first_at[0], y=first_at[1])
    second.create_pointer_move(x=second_at[0], y=second_at[1])
    first.create_pointer_down(button=0)
    second.create_pointer_down(button=0)
    for (first_to, second_to) in moves:
        first.create_pointer_move(duration=40, x=first_to[0], y=first_to[1])
        second.create_pointer_move(duration=40, x=second_to[0], y=second_to[1])
    first.create_pointer_up(button=0)
    second.create_pointer_up(button=0)
    builder.perform()


def scroll(driver):
    """A mouse drag on the page is a finger on the simulated screen: held still before letting go,
    the list stays where the finger took it; flicked, it goes on by itself after the button is up."""
    process, url = start(["view", "Scenarios/touch/drag-tracks-the-finger.yaml", "--http", "127.0.0.1:0"])
    try:
        driver.get(url)
        wait(driver, "the first frame", "window.viewer.frames > 0")
        x, y = driver.execute_script(
            "const box = document.querySelector('#screen [data-id=\"list\"] rect').getBoundingClientRect();"
            "return [Math.round(box.left + box.width / 2), Math.round(box.top + box.height * 0.7)];")
        dots = mouse_drag(driver, (x, y), [(0, -15)] * 10, 0.05, 0.4)
        held = wait(driver, "the list dragged", "(() => { const y = +document.querySelector('#screen [data-id=content]').dataset.y; return y < -50 && [y]; })()")[0]
        time.sleep(1.0)
        still = content_y(driver)
        if abs(still - held) > 1 or dots != 1:
            fail("a drag held still before letting go: content at y %s, then %s a second later (%d finger dots drawn)" % (held, still, dots))
        wait(driver, "no finger drawn", "document.querySelectorAll('.finger').length === 0")
        print("ok: a slow mouse drag, held, scrolled the list to y %s and it stayed (a finger dot drawn while down)" % held)
        # The flick in one action sequence, so the button comes up right after the last move
        # (a loaded machine could otherwise leave a pause there, and a finger that rests lets go still).
        flick = ActionBuilder(driver, duration=15)
        flick.pointer_action.move_to_location(x, y).pointer_down()
        for step in range(1, 6):
            flick.pointer_action.move_to_location(x, y - 40 * step)
        flick.pointer_action.pointer_up()
        flick.perform()
        released = wait(driver, "the release", "window.viewer.events.filter((line) => line.includes('scroll.willEndDragging')).length >= 2"
                        " && +document.querySelector('#screen [data-id=content]').dataset.y")
        time.sleep(1.5)
        later = content_y(driver)
        if not later < released - 20:
            fail("a flick did not fling: content at y %s on release, %s 1.5 s later" % (released, later))
        print("ok: a quick mouse drag flung the list: y %s on release, %s 1.5 s later" % (released, later))
        # Two touch pointers (a phone's fingers) moving up together are two fingers on the list:
        # its pan follows their centroid, and a scroll view (which cannot zoom) has no pinch.
        wait(driver, "the fling at rest", "window.viewer.events.some((line) => line.includes('scroll.didEndDecelerating'))")
        before = content_y(driver)
        two_fingers(driver, (x - 40, y), (x + 40, y), [((x - 40, y - 20 * step), (x + 40, y - 20 * step)) for step in range(1, 6)])
        wait(driver, "the two-finger drag", "window.viewer.events.filter((line) => line.includes('scroll.willEndDragging')).length >= 3")
        after = content_y(driver)
        pinched = driver.execute_script("return window.viewer.events.some((line) => line.includes('gesture.pinch'))")
        if not after < before - 20 or pinched:
            fail("two touch pointers moving up: content at y %s, then %s (a pinch: %s)" % (before, after, pinched))
        print("ok: two touch pointers moving up together scrolled the list from y %s to %s, and nothing pinched" % (before, after))
        driver.save_screenshot(os.path.join(OUTPUT, "viewer-scroll.png"))
    finally:
        process.kill()


def zoom(driver):
    """Two touch pointers (a phone's fingers) parting on a scroll view that can zoom pinch it:
    it zooms about their centre, and the page draws the zoomed image larger."""
    process, url = start(["view", "Scenarios/touch/zoom-pinch.yaml", "--http", "127.0.0.1:0"])
    try:
        driver.get(url)
        wait(driver, "the first frame", "window.viewer.frames > 0")
        before = frame_of(driver, "image")
        x, y = driver.execute_script(
            "const box = document.querySelector('#screen [data-id=\"photo\"] rect').getBoundingClientRect();"
            "return [Math.round(box.left + box.width / 2), Math.round(box.top + box.height / 2)];")
        two_fingers(driver, (x - 40, y), (x + 40, y), [((x - 40 - 10 * step, y), (x + 40 + 10 * step, y)) for step in range(1, 7)])
        wait(driver, "the zoom's end", "window.viewer.events.some((line) => line.includes('scroll.didEndZooming'))")
        # The fingers part from 80 to 200 pixels: the pinch's scale is 2.5, so the image (320
        # points wide at scale 1) is drawn 800 points wide, give or take the pixels' rounding.
        after = frame_of(driver, "image")
        dragged = driver.execute_script("return window.viewer.events.some((line) => line.includes('scroll.willBeginDragging'))")
        if not 700 < after["w"] < 900 or before["w"] != 320 or dragged:
            fail("two touch pointers parting on the photo: image %s wide, then %s (dragged: %s)" % (before["w"], after["w"], dragged))
        print("ok: two touch pointers parting zoomed the photo: the image drawn %s points wide, then %s" % (before["w"], after["w"]))
    finally:
        process.kill()


if CASE == "hostile":
    hostile(None)
else:
    driver = browser()
    try:
        {"login": login, "panner": panner, "scroll": scroll, "dbus": dbus, "zoom": zoom}[CASE](driver)
    finally:
        driver.quit()
