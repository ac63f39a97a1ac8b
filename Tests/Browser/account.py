"""A member's account in headless Chromium: a passkey added in settings and signed in with, by
the DevTools protocol's virtual authenticator (a platform authenticator with resident keys and
user verification); the data download made and fetched; the list of signed-in browsers; the
account deleted with its password. Every page on the way is checked by axe-core and for
sideways scrolling at 375 and 1280 px. The site answers at localhost (WebAuthn takes no IP
address as the relying party).

Run by Tests/Browser/account; usage: account.py MOIM_BINARY VENV [SCREENSHOT_DIR]"""

import os
import subprocess
import sys
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "script"))  # screenshots.py: driving the site
from screenshots import PASSWORD, PORT, Checks, accessibility, chromium, demo_site, load_axe, sideways, sign_in, wait_until_serving  # noqa: E402

check = Checks()
SITE = f"http://localhost:{PORT}"


def page_ok(driver, name, shots=None):
    problems = accessibility(driver) + sideways(driver)
    check(not problems, f"{name}: accessible, nothing sideways {problems if problems else ''}")
    if shots:
        driver.save_screenshot(os.path.join(shots, name.replace(" ", "-") + ".png"))


def main():
    binary, venv = sys.argv[1], sys.argv[2]
    shots = sys.argv[3] if len(sys.argv) > 3 else None
    if shots:
        os.makedirs(shots, exist_ok=True)
    load_axe(venv)
    data = demo_site(binary, "moim-account-", 3)
    server = subprocess.Popen([binary, "serve", "--no-supervise", "--port", str(PORT), "--data", data, "--quiet", "--base-url", SITE])
    drivers = []
    try:
        wait_until_serving()
        for width in (375, 1280):
            driver = chromium(width=width, javascript=True)
            drivers.append(driver)
            runner = f"runner{1 if width == 375 else 2}"
            driver.execute_cdp_cmd("WebAuthn.enable", {})
            authenticator = driver.execute_cdp_cmd("WebAuthn.addVirtualAuthenticator", {"options": {
                "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
                "isUserVerified": True, "automaticPresenceSimulation": True}})["authenticatorId"]

            # A passkey added in settings
            sign_in(driver, runner, SITE)
            driver.get(SITE + "/settings/passkeys")
            check(driver.find_element(By.CSS_SELECTOR, "form[data-passkey='register']").is_displayed(), f"{width}: with WebAuthn, 'Add a passkey' shows")
            page_ok(driver, f"passkeys-{width}", shots)
            driver.find_element(By.ID, "passkey-name").send_keys("Test phone")
            driver.find_element(By.CSS_SELECTOR, "form[data-passkey='register'] button[type=submit]").click()
            WebDriverWait(driver, 10).until(lambda d: "Your passkey is added" in d.page_source or "could not be added" in d.page_source)
            check("Test phone" in driver.page_source, f"{width}: the passkey is listed under its name")
            credentials = driver.execute_cdp_cmd("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
            check(len(credentials) == 1 and credentials[0]["isResidentCredential"], f"{width}: the authenticator holds one discoverable credential")

            # Signing out, then in with the passkey alone, no username typed
            driver.execute_script("document.querySelector(\"form[action='/logout']\").requestSubmit()")
            WebDriverWait(driver, 10).until(lambda d: "/settings" not in d.current_url)
            driver.get(SITE + "/login")
            page_ok(driver, f"login-{width}", shots)
            driver.find_element(By.CSS_SELECTOR, "form[data-passkey='signin'] button[type=submit]").click()
            WebDriverWait(driver, 10).until(lambda d: "/login" not in d.current_url)
            driver.get(SITE + "/settings")
            check(f"{runner}@example.com" in driver.page_source, f"{width}: signed in with the passkey alone")

            # The signed-in browsers
            driver.get(SITE + "/settings/browsers")
            check("Chrome" in driver.page_source and "This browser" in driver.page_source, f"{width}: this browser is listed by name")
            page_ok(driver, f"browsers-{width}", shots)

            # The data download
            driver.get(SITE + "/settings/export")
            page_ok(driver, f"export-{width}", shots)
            driver.find_element(By.CSS_SELECTOR, "form[action='/settings/export'] button[type=submit]").click()
            WebDriverWait(driver, 20).until(lambda d: "/settings/export/download" in d.page_source)
            answer = driver.execute_async_script("""
                const done = arguments[arguments.length - 1];
                fetch('/settings/export/download').then(r => r.arrayBuffer().then(b => done([r.status, r.headers.get('content-type'), b.byteLength])))
                  .catch(e => done([0, String(e), 0]));""")
            check(answer[0] == 200 and answer[1] == "application/zip" and answer[2] > 100, f"{width}: the zip downloads ({answer})")

            # Deleting the account, with its password
            driver.get(SITE + "/settings/delete")
            page_ok(driver, f"delete-{width}", shots)
            driver.find_element(By.ID, "password").send_keys(PASSWORD)
            driver.find_element(By.CSS_SELECTOR, "form[action='/settings/delete'] button[type=submit]").click()
            WebDriverWait(driver, 10).until(lambda d: "Your account was deleted" in d.page_source)
            sign_in_again = chromium(width=width, javascript=False)
            drivers.append(sign_in_again)
            sign_in_again.get(SITE + "/login")
            sign_in_again.find_element(By.ID, "login").send_keys(runner)
            sign_in_again.find_element(By.ID, "password").send_keys(PASSWORD)
            sign_in_again.find_element(By.CSS_SELECTOR, "form[action='/login'] button[type=submit]").click()
            time.sleep(0.5)
            check("/login" in sign_in_again.current_url, f"{width}: the deleted account no longer signs in")

        # Without JavaScript, the passkey forms stay hidden and the settings say why
        plain = chromium(width=375, javascript=False)
        drivers.append(plain)
        sign_in(plain, "runner3", SITE)
        plain.get(SITE + "/settings/passkeys")
        check(not plain.find_element(By.CSS_SELECTOR, "form[data-passkey='register']").is_displayed(), "without JavaScript, no button that cannot work")
        check("need JavaScript" in plain.page_source, "and a note that says what passkeys need")
    finally:
        for driver in drivers:
            driver.quit()
        server.terminate()
        server.wait()
    check.finish()


if __name__ == "__main__":
    main()
