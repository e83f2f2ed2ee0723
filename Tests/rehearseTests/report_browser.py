"""Opens a `rehearse run --report` folder in a real headless Chromium from file://, as a person
would, and checks what issue 27 asks of it: the index lists every scenario, failures first, and its
search filters them; a failing scenario's page shows the golden picture's diff, lays the actual picture over the
reference as an onion skin (issue 36) and zooms them; the timeline's
scrubber moves the drawn scene; no request leaves file:// and the console has no error (a script
the content policy blocked would be one); axe-core finds no accessibility violation on any page.

usage: report_browser.py REPORT_FOLDER SCREENSHOT_FOLDER FAILING_NAME SCENARIO_COUNT
Prints one "ok: ..." line per check; exits 1 with the reason on the first failure."""

import json
import os
import sys

from browser_support import axe_violations, browser, check_console, fail, wait

REPORT, SCREENSHOTS, FAILING, COUNT = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])


def requests(driver):
    """Every URL the pages asked for, from the DevTools log."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


driver = browser()
try:
    driver.get("file://" + os.path.join(os.path.abspath(REPORT), "index.html"))
    rows = wait(driver, "the index's rows", "document.querySelectorAll('#scenarios tbody tr').length")
    if rows != COUNT:
        fail("the index lists %d scenarios, not %d" % (rows, COUNT))
    first = driver.execute_script("return document.querySelector('#scenarios tbody tr').textContent")
    if FAILING not in first or "FAILED" not in first:
        fail("the first row is not the failing scenario: %r" % first)
    print("ok: the index lists all %d scenarios, the failing one first" % rows)
    driver.execute_script("const s = document.querySelector('input[data-filters]'); s.value = %s;"
                          "s.dispatchEvent(new Event('input'));" % json.dumps(FAILING))
    shown = driver.execute_script("return Array.from(document.querySelectorAll('#scenarios tbody tr')).filter(r => !r.hidden).length")
    if shown != 1:
        fail("searching for the failing scenario shows %d rows" % shown)
    print("ok: the search keeps 1 row of %d" % rows)

    driver.execute_script("document.querySelector('#scenarios tbody tr a').click()")
    wait(driver, "the failing page", "document.querySelector('figure[data-picture=diff] svg [data-diff-id]')")
    print("ok: the failing page shows the picture's diff")
    os.makedirs(SCREENSHOTS, exist_ok=True)
    driver.save_screenshot(os.path.join(SCREENSHOTS, "report-failing.png"))
    driver.execute_script("document.getElementById('failures').scrollIntoView()")
    driver.set_window_size(1100, 1000)
    driver.save_screenshot(os.path.join(SCREENSHOTS, "report-pictures.png"))

    # The onion skin: the range lays the actual picture over the reference, as opaque as it says.
    picture = "document.querySelector('figure[data-picture=%s] svg').getBoundingClientRect()"
    label = driver.execute_script("return document.querySelector('.picture-tools .onion').getAttribute('aria-label')")
    if not label:
        fail("the onion range has no accessible label")
    driver.execute_script("const o = document.querySelector('.picture-tools .onion'); o.value = 20; o.dispatchEvent(new Event('input'));")
    reference = driver.execute_script("const r = %s; return [r.left, r.top]" % (picture % "reference"))
    actual = driver.execute_script("const r = %s; return [r.left, r.top]" % (picture % "actual"))
    opacity = driver.execute_script("return getComputedStyle(document.querySelector('figure[data-picture=actual]')).opacity")
    if reference != actual or abs(float(opacity) - 0.2) > 0.001:
        fail("the overlay does not lay the actual picture over the reference at 20%%: %s, %s, opacity %s" % (reference, actual, opacity))
    print("ok: the onion range (%s) lays the actual picture over the reference, 20%% opaque" % label)
    width = driver.execute_script("return %s.width" % (picture % "actual"))
    driver.execute_script("const z = document.querySelector('.picture-tools .zoom'); z.value = 3; z.dispatchEvent(new Event('input'));")
    zoomed = driver.execute_script("return %s.width" % (picture % "actual"))
    if abs(zoomed - 3 * width) > 5:  # the border stays 1 px
        fail("zooming 3 times made the picture %s wide, from %s" % (zoomed, width))
    print("ok: the zoom makes the pictures 3 times as wide")
    driver.save_screenshot(os.path.join(SCREENSHOTS, "report-overlay.png"))

    visible = "Array.from(document.querySelectorAll('.frame')).findIndex(f => !f.hidden)"
    frames = driver.execute_script("return document.querySelectorAll('.frame').length")
    before = driver.execute_script("return " + visible)
    label = driver.execute_script("return document.getElementById('scrub-label').textContent")
    driver.execute_script("const s = document.getElementById('scrub'); s.value = s.max; s.dispatchEvent(new Event('input'));")
    after = driver.execute_script("return " + visible)
    moved = driver.execute_script("return document.getElementById('scrub-label').textContent")
    if frames < 2 or before != 0 or after != frames - 1 or moved == label:
        fail("the scrubber did not move the scene: %d frames, shown %d then %d, %r then %r" % (frames, before, after, label, moved))
    print("ok: the scrubber moved the drawn scene from frame 0 to frame %d (%s)" % (after, moved))

    outside = [url for url in requests(driver) if not url.startswith("file://")]
    if outside:
        fail("requests left file://: %s" % outside)
    check_console(driver)
    print("ok: no request left file:// and the console has no error")

    # axe-core on the failing page as it is now (scrubbed to its last step, overlaid), then on
    # every page as it opens.
    violations = axe_violations(driver)
    pages = sorted(os.path.join(folder, name) for folder, _, names in os.walk(os.path.abspath(REPORT))
                   for name in names if name.endswith(".html"))
    for page in pages:
        driver.get("file://" + page)
        violations += ["%s: %s" % (os.path.relpath(page, REPORT), violation) for violation in axe_violations(driver)]
    if violations:
        fail("axe-core found violations:\n" + "\n".join(violations))
    print("ok: axe-core finds no violation on the %d pages (and the failing one scrubbed)" % len(pages))
finally:
    driver.quit()
