"""What the browser tests share: a headless Chromium (Debian's, through Selenium and chromedriver)
whose DevTools log holds every request and console message, and polling the page."""

import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service


def fail(reason):
    print("FAIL: " + reason)
    sys.exit(1)


def browser():
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1100,900"]:
        options.add_argument(argument)
    # The DevTools log holds every WebSocket frame the page received.
    options.set_capability("goog:loggingPrefs", {"performance": "ALL", "browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait(driver, description, condition, seconds=5.0):
    """Polls `condition` (a JavaScript expression) until it is truthy; returns its value."""
    deadline = time.time() + seconds
    value = None
    while time.time() < deadline:
        value = driver.execute_script("return " + condition)
        if value:
            return value
        time.sleep(0.05)
    fail("%s: still %r after %.0f s" % (description, value, seconds))


def check_console(driver):
    """Fails if the console has had an error since the last look (a script the content policy
    blocked is one)."""
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    if errors:
        fail("console errors: %s" % errors)


def axe_violations(driver):
    """Runs axe-core (bundled by the axe-core-python package) on the page the driver shows and
    returns its violations of every impact, each as "rule (impact): help: the elements"."""
    import axe_core_python

    with open(os.path.join(os.path.dirname(axe_core_python.__file__), "axe.min.js"), encoding="utf-8") as source:
        driver.execute_script(source.read())
    violations = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then((results) => done(results.violations.map((violation) =>"
        " violation.id + ' (' + violation.impact + '): ' + violation.help + ': '"
        " + violation.nodes.map((node) => node.target.join(' ')).join(', '))));")
    return violations
