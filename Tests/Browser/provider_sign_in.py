"""A newcomer signs in through an OpenID Connect provider in a real browser (headless Chromium,
JavaScript off): from a meetup page, "Log in to join", "Continue with …", the provider's own
page, back to pick a username, and on the meetup page signed in. Then, in a new browser, the
same person comes back through the provider straight to the page.

Run by Tests/Browser/provider-sign-in; usage: provider_sign_in.py MOIM_BINARY"""

import os
import subprocess
import sys
import tempfile

from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "script"))  # screenshots.py: driving the site
from screenshots import BASE, PORT, Member, chromium, demo_site, host_meetup, wait_until_serving  # noqa: E402

failures = []
NEWCOMER = '{"sub":"sora-at-club","email":"sora@club.example","email_verified":true,"name":"Sora Choi"}'


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)


def through_the_provider(driver):
    """At the provider's page: who am I (its test form), and authorize; returns once the chain
    of redirects is back at Moim."""
    driver.find_element(By.NAME, "sub").send_keys("sora-at-club")
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    WebDriverWait(driver, 10).until(lambda browser: browser.current_url.startswith(BASE))


def main():
    binary = sys.argv[1]
    data = demo_site(binary, "moim-provider-browser-", 2)
    provider_dir = tempfile.mkdtemp(prefix="moim-provider-browser-oidc-")
    issuer = subprocess.run(["Tests/Doubles/oidc-provider", "start", provider_dir, NEWCOMER], check=True, capture_output=True, text=True).stdout.strip()
    server = subprocess.Popen([binary, "serve", "--no-supervise", "--port", str(PORT), "--data", data, "--quiet", "--base-url", BASE,
                               "--oidc-issuer", issuer, "--oidc-client-id", "moim", "--oidc-client-secret", "browser-test",
                               "--oidc-name", "Hangang Runners SSO"])
    drivers = []
    try:
        wait_until_serving()
        host = Member("runner1").log_in()
        meetup = host_meetup(host, capacity=5)

        newcomer = chromium(width=390, javascript=False)
        drivers.append(newcomer)
        newcomer.get(BASE + meetup)
        newcomer.find_element(By.CSS_SELECTOR, ".cta a.button").click()
        check(newcomer.current_url.startswith(BASE + "/login"), "the meetup's call to action leads to the login page")
        newcomer.find_element(By.CSS_SELECTOR, "a.provider-oidc").click()  # click 1
        check(newcomer.current_url.startswith(issuer), "the button leads to the provider")
        through_the_provider(newcomer)
        check(newcomer.current_url == BASE + "/signup/provider", "back at Moim, asked for a username")
        username = newcomer.find_element(By.ID, "username").get_attribute("value")
        check(username == "sora", f"a username suggested from the verified address ({username!r})")
        for box in ("input[name=agree_terms]", "input[name=agree_privacy]", "input[name=age][value='14plus']"):
            newcomer.find_element(By.CSS_SELECTOR, box).click()  # clicks 2-4: the agreements, never ticked beforehand
        newcomer.find_element(By.CSS_SELECTOR, "form[action='/signup/provider'] button[type=submit]").click()  # click 5
        check(newcomer.current_url == BASE + meetup, "on the meetup page again")
        check(bool(newcomer.find_elements(By.CSS_SELECTOR, f"form[action='{meetup}/apply']")), "signed in: the page offers to join")
        check(not newcomer.find_elements(By.CSS_SELECTOR, ".cta a[href^='/login']"), "no more 'log in to join'")

        returning = chromium(width=390, javascript=False)
        drivers.append(returning)
        returning.get(BASE + "/login?next=" + meetup)
        returning.find_element(By.CSS_SELECTOR, "a.provider-oidc").click()
        through_the_provider(returning)
        check(returning.current_url == BASE + meetup, "a returning member goes from the provider straight back to the page")
        check(bool(returning.find_elements(By.CSS_SELECTOR, f"form[action='{meetup}/apply']")), "signed in there")
    finally:
        for driver in drivers:
            driver.quit()
        server.terminate()
        server.wait()
        subprocess.run(["Tests/Doubles/oidc-provider", "stop", provider_dir])
    print("\n".join(["", f"{len(failures)} checks failed"] if failures else ["", "all checks passed"]))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
