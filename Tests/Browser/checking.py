"""What the browser flows share: a check that prints and counts, a wait that polls, and a
headless Chromium signed in as a member."""

import time

from selenium.common.exceptions import WebDriverException

from screenshots import BASE, chromium

failures = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)


def wait_for(condition, seconds):
    """Whether `condition()` held within `seconds`, polled every 50 ms. A page caught between
    two documents (an element gone stale, none found yet) counts as not yet."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except WebDriverException:
            pass
        time.sleep(0.05)
    return False


def signed_in(member, width=1280, javascript=True):
    """A headless Chromium `width` px wide with `member`'s session."""
    driver = chromium(width=width, javascript=javascript)
    driver.get(BASE + "/healthz")
    driver.add_cookie({"name": "moim_session", "value": member.session, "path": "/"})
    return driver
