"""Moim on the home screen, in headless Chromium: Chromium's own installability check reports no
error, the service worker shows the offline page (never a member's page) with the network cut
by the DevTools protocol, signing out clears what it kept but that page (Back then shows nothing
of the member, offline still gets Moim's page), the notification settings are
accessible and say what they need with JavaScript off. With an output folder, screenshots of
the site as a standalone window on a phone and of the notification settings.

Run by Tests/Browser/home-screen; usage: home_screen.py MOIM_BINARY VENV [SCREENSHOT_DIR]"""

import os
import subprocess
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "script"))  # screenshots.py: driving the site
from screenshots import BASE, PORT, Checks, sign_in, accessibility, chromium, demo_site, load_axe, sideways, wait_until_serving  # noqa: E402

check = Checks()


def worker_ready(driver):
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        navigator.serviceWorker.ready.then(r => done(Boolean(r.active))).catch(e => done(String(e)));""")


def cached(driver):
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        caches.keys().then(k => done(k)).catch(e => done([String(e)]));""")


def kept_files(driver):
    """The paths the service worker keeps, in every cache it has."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        caches.keys().then(names => Promise.all(names.map(name => caches.open(name).then(cache => cache.keys()))))
          .then(lists => done([].concat(...lists).map(request => new URL(request.url).pathname).sort()))
          .catch(e => done([String(e)]));""")


def main():
    binary, venv = sys.argv[1], sys.argv[2]
    shots = sys.argv[3] if len(sys.argv) > 3 else None
    if shots:
        os.makedirs(shots, exist_ok=True)
    load_axe(venv)
    data = demo_site(binary, "moim-home-screen-", 3)
    serve = [binary, "serve", "--no-supervise", "--port", str(PORT), "--data", data, "--quiet", "--base-url", BASE]
    server = subprocess.Popen(serve)
    drivers = []
    try:
        wait_until_serving()
        phone = chromium(width=390, javascript=True)
        drivers.append(phone)
        phone.get(BASE + "/")
        check(worker_ready(phone) is True, "the service worker is registered and active")
        phone.get(BASE + "/")
        errors = phone.execute_cdp_cmd("Page.getInstallabilityErrors", {}).get("installabilityErrors", [])
        check(errors == [], f"Chromium's installability check finds no error {errors if errors else ''}")

        sign_in(phone, "runner1")
        phone.get(BASE + "/settings/notifications")
        check(phone.find_element(By.ID, "push-on").is_displayed(), "with JavaScript, 'Turn on notifications here' shows")
        problems = accessibility(phone) + sideways(phone)
        check(not problems, f"the notification settings are accessible, nothing sideways {problems if problems else ''}")
        if shots:
            phone.save_screenshot(os.path.join(shots, "notifications-phone-en.png"))

        # Offline, the DevTools protocol's way (for the page and for its service worker), then the
        # server gone as well: a navigation gets the offline page, never the member's page.
        offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        phone.execute_cdp_cmd("Network.enable", {})
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        server.terminate()
        server.wait()
        phone.get(BASE + "/crews")
        body = phone.find_element(By.TAG_NAME, "body").text
        check("You are offline" in body and "오프라인" in body, "offline: the offline page, in both languages")
        check("Runner 1" not in phone.page_source, "offline: nothing of the member's page")
        server = subprocess.Popen(serve)
        wait_until_serving()
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", dict(offline, offline=False))
        phone.get(BASE + "/crews")
        check("Runner 1" in phone.page_source, "back online: the live page")

        # Signing out clears what the worker kept, but its offline page; Back then shows nothing
        # of the member (their pages are never stored), and offline still gets Moim's page.
        check(len(cached(phone)) > 0, "the worker kept the site's static files")
        phone.get(BASE + "/settings")
        check("runner1@" in phone.page_source, "the settings page shows the member's address")
        phone.execute_script("document.querySelector(\"form[action='/logout']\").requestSubmit()")
        WebDriverWait(phone, 10).until(lambda d: "Runner 1" not in d.page_source)
        time.sleep(1)
        check(kept_files(phone) == ["/offline.html"], f"signed out: nothing kept but the offline page ({kept_files(phone)})")
        phone.back()
        time.sleep(1)
        check("runner1@" not in phone.page_source and "Runner 1" not in phone.page_source,
              "Back after signing out shows nothing of the member")
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        server.terminate()
        server.wait()
        phone.get(BASE + "/meetups")
        check("You are offline" in phone.find_element(By.TAG_NAME, "body").text, "offline after signing out: Moim's offline page")
        server = subprocess.Popen(serve)
        wait_until_serving()
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", dict(offline, offline=False))

        if shots:
            standalone = chromium(width=390, javascript=True)
            drivers.append(standalone)
            standalone.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "display-mode", "value": "standalone"}]})
            standalone.set_window_size(390, 844)
            sign_in(standalone, "runner2")
            standalone.get(BASE + "/")
            standalone.save_screenshot(os.path.join(shots, "standalone-phone.png"))

        # JavaScript off: nothing changes, and the settings say what turning notifications on needs.
        plain = chromium(width=390, javascript=False)
        drivers.append(plain)
        sign_in(plain, "runner3")
        plain.get(BASE + "/settings/notifications")
        check(not plain.find_element(By.ID, "push-on").is_displayed(), "without JavaScript, no button that cannot work")
        check("needs JavaScript" in plain.page_source, "and a note that says what it needs")
        plain.find_element(By.CSS_SELECTOR, "form[action='/settings/notifications'] button[type=submit]").click()
        try:
            WebDriverWait(plain, 10).until(lambda d: "Your choices are saved" in d.page_source)
            saved = True
        except Exception:  # noqa: BLE001
            saved = False
        check(saved, "the choices save without JavaScript")
    finally:
        for driver in drivers:
            driver.quit()
        server.terminate()
        server.wait()
    check.finish()


if __name__ == "__main__":
    main()
