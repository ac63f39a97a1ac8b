"""Two real browsers on one meetup page (headless Chromium through Selenium): what the live
updates promise, checked as people would notice it.

A (the host) and B (going) open the meetup. A writes in the talk, with the form, without
leaving the page: B sees it within a second, as text. Someone follows B: B's bell counts it.
The server is killed (-9) and started again while both listen: B's browser reconnects and the
message A wrote meanwhile arrives. B gives up their place: A's next message never reaches B,
whose page says the meetup changed. With JavaScript off, B's talk form posts and the page shows
the message after the redirect, as before.

Run by Tests/Browser/live-talk; usage: live_talk.py MOIM_BINARY"""

import os
import signal
import subprocess
import sys
import time

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "script"))  # screenshots.py: driving the site
sys.path.insert(0, os.path.dirname(__file__))  # checking.py
from screenshots import BASE, PORT, Member, demo_site, host_meetup, wait_until_serving  # noqa: E402
from checking import check, failures, signed_in as browser, wait_for  # noqa: E402


def thread_texts(driver):
    return [item.text for item in driver.find_elements(By.CSS_SELECTOR, "#talk .thread li")]


def main():
    binary = sys.argv[1]
    data = demo_site(binary, "moim-live-browsers-", 4)

    def serve():
        server = subprocess.Popen([binary, "serve", "--no-supervise", "--port", str(PORT), "--data", data, "--quiet"])
        wait_until_serving()
        return server

    server = serve()
    drivers = []
    try:
        host, going, follower = Member("runner1").log_in(), Member("runner2").log_in(), Member("runner3").log_in()
        meetup = host_meetup(host, capacity=2)
        going.post(meetup + "/apply", [], page=meetup)

        a, b = browser(host), browser(going)
        drivers += [a, b]
        for driver in (a, b):
            driver.get(BASE + meetup)
        time.sleep(1)  # both streams open

        hostile = "<img src=x onerror=alert(1)> I'm at gate 2, blue cap"
        a.find_element(By.ID, "talk-body").send_keys(hostile)
        written = time.monotonic()
        a.find_element(By.CSS_SELECTOR, "form[data-live=talk-form] button[type=submit]").click()
        seen = wait_for(lambda: any(hostile in text for text in thread_texts(b)), 1.0)
        check(seen, f"B sees A's message without reloading ({time.monotonic() - written:.2f} s)")
        check(a.current_url == BASE + meetup, "A stayed on the page (the form posted in place)")
        check(not b.find_elements(By.CSS_SELECTOR, "#talk .thread img"), "the message arrived as text, not as an image tag")
        check(wait_for(lambda: any(hostile in text for text in thread_texts(a)), 1.0), "A sees their own message arrive")

        follower.post("/u/runner2/follow", [], page="/u/runner2")
        check(wait_for(lambda: b.find_elements(By.CSS_SELECTOR, "a.bell .bubble"), 1.0), "B's bell counts the new follower")

        # kill -9 while both listen; a message written before the restart is not lost.
        server.send_signal(signal.SIGKILL)
        server.wait()
        server = serve()
        host.post(meetup + "/comments", [("body", "Written while you were away")], page=meetup)
        check(wait_for(lambda: any("Written while you were away" in text for text in thread_texts(b)), 8.0),
              "after kill -9 and a restart, B's browser reconnects and gets the message")

        going.post(meetup + "/cancel", [], page=meetup)
        check(wait_for(lambda: b.find_element(By.CSS_SELECTOR, "[data-live=changed]").is_displayed(), 2.0),
              "B's page says the meetup changed once B gave up the place")
        host.post(meetup + "/comments", [("body", "Only for those going")], page=meetup)
        time.sleep(1.5)
        check(not any("Only for those going" in text for text in thread_texts(b)), "B, no longer going, receives no more talk")

        going.post(meetup + "/apply", [], page=meetup)
        plain = browser(going, javascript=False)
        drivers.append(plain)
        plain.get(BASE + meetup)
        plain.find_element(By.ID, "talk-body").send_keys("Posted with JavaScript off")
        plain.find_element(By.CSS_SELECTOR, "form[data-live=talk-form] button[type=submit]").click()
        check(any("Posted with JavaScript off" in text for text in thread_texts(plain)),
              "with JavaScript off, the talk form posts and the page shows the message")
    finally:
        for driver in drivers:
            driver.quit()
        server.terminate()
        server.wait()
    if failures:
        raise SystemExit(f"{len(failures)} failed")


main()
