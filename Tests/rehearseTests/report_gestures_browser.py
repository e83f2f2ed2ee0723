"""Opens a scenario's page of a `rehearse run --report` folder in a real headless Chromium from
file://, as a person would, and checks a gesture step's frames (issue 36): each gesture strip is
drawn under its step, 320 pixels high and as wide as its frames, scrolling inside its row rather
than widening the page; each frame is titled with its time and where its fingers are (its
accessible name), and its fingers are drawn on it; the console has no error. Saves a screenshot of
the timeline and of each strip scrolled to its end.

usage: report_gestures_browser.py PAGE SCREENSHOT_FOLDER
Prints one "ok: ..." line per check, and each frame's title as "frame: ..."; exits 1 with the
reason on the first failure."""

import os
import sys

from browser_support import axe_violations, browser, check_console, fail, wait

PAGE, SCREENSHOTS = sys.argv[1], sys.argv[2]

driver = browser()
try:
    driver.get("file://" + os.path.abspath(PAGE))
    strips = wait(driver, "the gesture strips", "document.querySelectorAll('#steps tr.gesture figure.gesture-frames').length")
    print("ok: %d gesture strips in the timeline" % strips)
    for index in range(strips):
        figure = "document.querySelectorAll('figure.gesture-frames')[%d]" % index
        row = driver.execute_script("return %s.closest('tr').previousElementSibling.textContent" % figure)
        caption = driver.execute_script("return %s.querySelector('figcaption').textContent" % figure)
        size = driver.execute_script("const r = %s.querySelector('svg').getBoundingClientRect(); return [r.width, r.height]" % figure)
        drawn = driver.execute_script("const s = %s.querySelector('svg'); return s.width.baseVal.value / s.height.baseVal.value" % figure)
        if abs(size[1] - 320) > 1 or abs(size[0] / size[1] - drawn) > 0.01:
            fail("strip %d is drawn %s, not 320 high at its own proportions (%.3f)" % (index, size, drawn))
        box = driver.execute_script("return %s.querySelector('.strip').getBoundingClientRect().right" % figure)
        if box > driver.execute_script("return document.documentElement.clientWidth"):
            fail("strip %d reaches past the window (%s)" % (index, box))
        frames = driver.execute_script("return Array.from(%s.querySelectorAll('svg > g')).map(g => g.firstElementChild.tagName"
                                       " + '|' + g.firstElementChild.textContent)" % figure)
        if not frames or any(not frame.startswith("title|t = ") for frame in frames):
            fail("strip %d: a frame's first child is not its title: %s" % (index, frames))
        for frame in frames:
            print("frame: " + frame[len("title|"):])
        fingers = driver.execute_script("return Array.from(%s.querySelectorAll('[data-finger] circle'))"
                                        ".filter(c => c.getBoundingClientRect().width > 10).length" % figure)
        print("ok: strip %d under %r: %r, %d frames titled, %d fingers drawn" % (index, row.strip(), caption, len(frames), fingers))
        driver.execute_script("const s = %s.querySelector('.strip'); s.scrollLeft = s.scrollWidth" % figure)

    os.makedirs(SCREENSHOTS, exist_ok=True)
    driver.set_window_size(1100, 1400)
    driver.execute_script("document.getElementById('timeline').scrollIntoView()")
    driver.save_screenshot(os.path.join(SCREENSHOTS, "report-gestures.png"))
    for index, strip in enumerate(driver.find_elements("css selector", "figure.gesture-frames .strip")):
        strip.screenshot(os.path.join(SCREENSHOTS, "report-gesture-%d.png" % index))
    check_console(driver)
    print("ok: the console has no error")
    violations = axe_violations(driver)
    if violations:
        fail("axe-core found violations:\n" + "\n".join(violations))
    print("ok: axe-core finds no violation on the page with its strips")
finally:
    driver.quit()
