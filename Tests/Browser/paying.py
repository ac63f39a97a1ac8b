"""Paying a crew's fee in a real browser (headless Chromium) against the payment double
(Tests/Doubles/payment-providers): PortOne with JavaScript on, through its browser SDK (stood in for) and the
redirect flow phones use; Stripe Checkout with JavaScript off, out to its page and back. The
member is a member exactly when the provider says the exact amount was paid; the ledger
balances against the providers. With an output folder, it also photographs the pay, result
and ledger pages, phone and desktop, in English and Korean.

Every page on the way is checked with axe-core (WCAG 2.0–2.2 A and AA) and for sideways
scrolling, as script/screenshots checks the others.

Run by Tests/Browser/paying; usage: paying.py MOIM_BINARY VENV [SCREENSHOT_DIR]"""

import os
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.webdriver.support.wait import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "script"))  # screenshots.py: driving the site
import screenshots  # noqa: E402
from screenshots import BASE, PORT, Checks, Member, sign_in, accessibility, chromium, demo_site, load_axe, sideways, wait_until_serving  # noqa: E402

check = Checks()
STORE = "store-00000000-0000-0000-0000-000000000001"


def crew(owner, name, fee, currency, policy="open"):
    return owner.post("/crews", [
        ("name", name), ("slug", ""), ("sport", "running"), ("region", "seoul"), ("description", "Dawn runs by the river, every Saturday."),
        ("meeting_time", "Sat 6:30"), ("meeting_place", "Yeouido"), ("fee_amount", str(fee)), ("fee_currency", currency),
        ("fee_period", "once"), ("join_policy", policy), ("member_cap", ""), ("refund_days", "7")], page="/crews/new")


def inspect(driver, what):
    """axe-core's violations and sideways scrolling on the page as shown."""
    problems = accessibility(driver) + sideways(driver)
    check(not problems, f"{what}: accessible, nothing sideways {problems if problems else ''}")


def shoot(driver, folder, name, width, height=900):
    if not folder:
        return
    driver.set_window_size(width, height)
    total = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, max(height, total))
    driver.save_screenshot(os.path.join(folder, name + ".png"))
    driver.set_window_size(width, height)


def main():
    binary = sys.argv[1]
    load_axe(sys.argv[2])
    shots = sys.argv[3] if len(sys.argv) > 3 else None
    if shots:
        os.makedirs(shots, exist_ok=True)
    data = demo_site(binary, "moim-payments-browser-", 4)
    subprocess.run([binary, "admin", "grant", "runner1", "--data", data], check=True, stdout=subprocess.DEVNULL)
    double_dir = tempfile.mkdtemp(prefix="moim-payments-browser-double-")
    double = subprocess.run(["Tests/Doubles/payment-providers", "start", double_dir], check=True, capture_output=True, text=True).stdout.strip()
    webhook_secret = "whsec_" + __import__("base64").b64encode(b"moim-portone-webhook-secret-32by").decode()
    server = subprocess.Popen([binary, "serve", "--no-supervise", "--port", str(PORT), "--data", data, "--quiet", "--base-url", BASE,
                               "--portone-store-id", STORE, "--portone-channel-key", "channel-key-test", "--portone-api-secret", "portone-test-secret",
                               "--portone-webhook-secret", webhook_secret, "--portone-api-url", double, "--portone-sdk-url", double + "/browser-sdk.js",
                               "--portone-easy-pay", "KAKAOPAY,TOSSPAY", "--portone-test-mode",
                               "--stripe-secret-key", "sk_test_moim", "--stripe-webhook-secret", "whsec_moim_stripe_test", "--stripe-api-url", double])
    # The double posts its webhooks to this server, as the providers would.
    subprocess.run(["curl", "-s", "-X", "POST", "--data-binary",
                    f'{{"portone": "{BASE}/payments/webhooks/portone", "stripe": "{BASE}/payments/webhooks/stripe"}}', double + "/_control/webhooks"],
                   check=True, capture_output=True)
    drivers = []
    try:
        wait_until_serving()
        owner = Member("runner1").log_in()
        hangang = crew(owner, "Hangang Dawn Runners", 10000, "KRW")
        brooklyn = crew(owner, "Brooklyn Striders", 20, "USD")

        # PortOne, JavaScript on, a phone.
        phone = chromium(width=390, javascript=True)
        drivers.append(phone)
        sign_in(phone, "runner2")
        phone.get(BASE + hangang)
        phone.find_element(By.CSS_SELECTOR, f"a.button[href='{hangang}/pay']").click()
        check(phone.current_url == BASE + hangang + "/pay", "'Join and pay' leads to the payment page")
        check("₩10,000" in phone.page_source, "the page says how much")
        inspect(phone, "the payment page on a phone")
        shoot(phone, shots, "pay-phone-en", 390)
        phone.find_element(By.CSS_SELECTOR, "button[name=provider][value=portone]").click()
        WebDriverWait(phone, 10).until(lambda d: "/pay" in d.current_url and "/payments/" in d.current_url)
        form = phone.find_element(By.ID, "portone-pay")
        check(form.is_displayed(), "with JavaScript on, the window's form shows")
        inspect(phone, "PortOne's window page")
        shoot(phone, shots, "window-phone-en", 390)
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        WebDriverWait(phone, 10).until(lambda d: d.current_url.startswith(double + "/_window"))
        check("10000" in phone.find_element(By.ID, "amount").text, "the window shows the amount Moim fixed")
        phone.find_element(By.ID, "pay").click()
        WebDriverWait(phone, 10).until(lambda d: d.current_url.startswith(BASE + "/payments/") and "/return" not in d.current_url)
        check("You paid ₩10,000 to Hangang Dawn Runners" in phone.page_source, "back by the redirect: the result says paid")
        inspect(phone, "the result page")
        shoot(phone, shots, "result-phone-en", 390)
        phone.get(BASE + hangang)
        check("Leave" in phone.page_source or "leave" in phone.page_source, "a member of the crew now")

        # A cancelled window: nothing charged, no membership.
        canceller = chromium(width=390, javascript=True)
        drivers.append(canceller)
        sign_in(canceller, "runner3")
        canceller.get(BASE + hangang + "/pay")
        canceller.find_element(By.CSS_SELECTOR, "button[name=provider][value=portone]").click()
        WebDriverWait(canceller, 10).until(lambda d: d.find_elements(By.ID, "portone-pay"))
        canceller.find_element(By.CSS_SELECTOR, "#portone-pay button[type=submit]").click()
        WebDriverWait(canceller, 10).until(lambda d: d.current_url.startswith(double + "/_window"))
        canceller.find_element(By.ID, "cancel").click()
        WebDriverWait(canceller, 10).until(lambda d: d.current_url.startswith(BASE + "/payments/") and "/return" not in d.current_url)
        check("cancelled" in canceller.page_source, "cancelled in the window: the result says so")
        inspect(canceller, "a cancelled payment's page")

        # Stripe, JavaScript off, a desktop, in Korean.
        desktop = chromium(width=1280, javascript=False)
        drivers.append(desktop)
        sign_in(desktop, "runner4")
        desktop.get(BASE + brooklyn + "/pay")
        check("$20" in desktop.page_source, "the Stripe crew's fee in dollars")
        shoot(desktop, shots, "pay-desktop-en", 1280)
        desktop.find_element(By.CSS_SELECTOR, "button[name=provider][value=stripe]").click()
        WebDriverWait(desktop, 10).until(lambda d: d.current_url.startswith(double + "/checkout/"))
        check("2000 USD" in desktop.find_element(By.ID, "amount").text, "Stripe's page asks for 2000 cents")
        desktop.find_element(By.ID, "pay").click()
        WebDriverWait(desktop, 10).until(lambda d: d.current_url.startswith(BASE + "/payments/") and "/return" not in d.current_url)
        check("You paid $20 to Brooklyn Striders" in desktop.page_source, "back from Stripe without a line of script: paid")
        shoot(desktop, shots, "result-desktop-en", 1280)

        # The ledger: both payments, checked against the providers (the webhooks came too, and changed nothing twice).
        time.sleep(1)
        staff = chromium(width=1280, javascript=True)
        drivers.append(staff)
        staff.get(BASE + "/healthz")  # an admin with one-time codes on: staff pages open
        staff.add_cookie({"name": "moim_session", "value": Member("runner1").log_in().turn_on_two_factor().session, "path": "/"})
        staff.get(BASE + hangang + "/ledger/check")
        check("The ledger matches what the providers say" in staff.page_source, "the ledger balances against PortOne")
        check(staff.page_source.count("Join fee") >= 1, "the fee is a ledger line")
        inspect(staff, "the ledger, checked")
        shoot(staff, shots, "ledger-desktop-en", 1280)
        staff.get(BASE + "/admin/payments")
        check("Hangang Dawn Runners" in staff.page_source and "Brooklyn Striders" in staff.page_source, "admins see every crew's payments")
        inspect(staff, "the admin's payments")
        desktop.get(BASE + "/settings/payments")
        check("Brooklyn Striders" in desktop.page_source, "a member sees their own payments in settings")
        phone.get(BASE + "/settings/payments")
        inspect(phone, "my payments on a phone")
        staff.get(BASE + brooklyn + "/ledger/check")
        check("The ledger matches what the providers say" in staff.page_source, "the ledger balances against Stripe")

        if shots:
            for driver in (phone, canceller, staff):
                driver.get(BASE + "/settings")
                Select(driver.find_element(By.ID, "footer-language")).select_by_value("ko")
                driver.find_element(By.CSS_SELECTOR, "form.language-switch button[type=submit]").click()
            canceller.get(BASE + hangang + "/pay")
            shoot(canceller, shots, "pay-phone-ko", 390)
            phone.get(BASE + "/settings/payments")
            link = phone.find_element(By.CSS_SELECTOR, "td a[href^='/payments/']").get_attribute("href")
            phone.get(link)
            shoot(phone, shots, "result-phone-ko", 390)
            staff.get(BASE + hangang + "/ledger/check")
            shoot(staff, shots, "ledger-desktop-ko", 1280)
    finally:
        for driver in drivers:
            driver.quit()
        server.terminate()
        server.wait()
        subprocess.run(["Tests/Doubles/payment-providers", "stop", double_dir])
    check.finish()


if __name__ == "__main__":
    main()
