"""Moim by keys only, in headless Chromium: Tab, Shift+Tab, Enter, Space and arrows in selects,
never a click. Signing up (with a mistake first), writing a post with a photo, joining a crew,
applying to a meetup, leaving feedback in a retro and reporting a post. On every page it
visits it also checks that the skip link leads into the main content, that the focus order is
the visual order, that the landmarks are there once (the site's navigation besides, each
named), that the tab strips mark the current page, and that Chromium's accessibility tree
(CDP Accessibility.getFullAXTree) gives every control a name.

Run by Tests/Browser/keyboard (and script/test); usage: keyboard_flows.py MOIM_BINARY"""

import os
import sqlite3
import subprocess
import sys
import tempfile
import time

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "script"))  # screenshots.py: driving the site
import screenshots  # noqa: E402
from screenshots import Member, chromium, demo_site, host_meetup, png, wait_until_serving  # noqa: E402

# Beside script/screenshots' port, so both can run at once.
screenshots.PORT = 18097
screenshots.BASE = BASE = f"http://127.0.0.1:{screenshots.PORT}"
failures = []


def check(condition, what):
    print(("ok    " if condition else "FAIL  ") + what)
    if not condition:
        failures.append(what)


def press(driver, *keys):
    ActionChains(driver).send_keys(*keys).perform()


def submit(driver, key):
    """Presses `key` on the focused control and waits for the page it leads to."""
    driver.execute_script("window.__leaving = true")
    press(driver, key)
    for _ in range(300):
        if driver.execute_script("return window.__leaving === undefined && document.readyState === 'complete'"):
            return
        time.sleep(0.05)


def active(driver, script):
    """`script` evaluated with `e` the focused element."""
    return driver.execute_script("const e = document.activeElement; return " + script)


def tab_to(driver, selector, limit=120, backwards=False):
    """Presses Tab (or Shift+Tab) until the focused element matches `selector`; False if it never does."""
    for _ in range(limit):
        if backwards:
            ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        else:
            press(driver, Keys.TAB)
        if active(driver, f"e && e.matches({selector!r})"):
            return True
    return False


def type_into(driver, selector, text):
    check(tab_to(driver, selector), f"Tab reaches {selector}")
    driver.switch_to.active_element.send_keys(text)


def page_checks(driver, name):
    """What every page must get right for keyboards and screen readers."""
    landmarks = driver.execute_script("""
        const count = s => document.querySelectorAll(s).length;
        const named = [...document.querySelectorAll('nav')].map(n => n.getAttribute('aria-label') || '');
        return {banner: count('body > header, body > .site-header'), main: count('main'), contentinfo: count('body > footer'),
                navs: named, unnamed: named.filter(n => !n).length, distinct: new Set(named).size};""")
    check(landmarks["banner"] == 1 and landmarks["main"] == 1 and landmarks["contentinfo"] == 1,
          f"{name}: one header, one main, one footer ({landmarks})")
    check(landmarks["unnamed"] == 0 and landmarks["distinct"] == len(landmarks["navs"]), f"{name}: every nav named, each differently")
    current = driver.execute_script("return document.querySelectorAll('nav [aria-current=page]').length")
    tabs = driver.execute_script("return document.querySelectorAll('nav.tabs').length")
    check(tabs == 0 or current >= 1, f"{name}: the tab strip marks the current page")

    nameless = screenshots.nameless_controls(driver)
    check(not nameless, f"{name}: every control has an accessible name {nameless}")

    # The skip link is the first stop, and Enter on it leads into the main content.
    page = driver.current_url.split("#")[0]
    driver.get(page)
    press(driver, Keys.TAB)
    check(active(driver, "e.classList.contains('skip-link')"), f"{name}: the first Tab reaches the skip link")
    press(driver, Keys.ENTER)
    press(driver, Keys.TAB)
    check(active(driver, "e.closest('main') !== null"), f"{name}: after the skip link, Tab goes into the main content")

    # The focus order is the reading order: each stop is below the last, or to its right (on
    # the same line, or at the top of a column beside it), until the page's end.
    driver.get(page)
    stops, previous = 0, None
    for _ in range(60):
        press(driver, Keys.TAB)
        if active(driver, "e === document.body || e === null"):
            break
        box = active(driver, """(() => { const r = e.getBoundingClientRect();
            return r.width && r.height ? [r.left + scrollX, r.top + scrollY, r.bottom + scrollY, r.right + scrollX, e.outerHTML.slice(0, 80)] : null })()""")
        if not box or active(driver, "e.classList.contains('skip-link')"):
            continue
        if previous:
            left, top, bottom, _, html = box
            above = bottom <= previous[1] + 2
            same_line = not above and top < previous[2] - 2
            if (above and left < previous[3] - 2) or (same_line and left < previous[0] - 2):
                check(False, f"{name}: focus goes {'up' if above else 'leftwards'}, from {previous[4]!r} to {html!r}")
                return
        previous = box
        stops += 1
    check(stops > 3, f"{name}: the focus order follows the page ({stops} stops)")


def ax_node(driver, role, name_part=""):
    """The first node of Chromium's accessibility tree with `role` whose name holds `name_part`, as
    {name, properties}; None if there is none."""
    for node in driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]:
        name = node.get("name", {}).get("value") or ""
        if not node.get("ignored") and node.get("role", {}).get("value") == role and name_part in name:
            return {"name": name, "properties": {p["name"]: p.get("value", {}).get("value") for p in node.get("properties", [])}}
    return None


def wait_for(driver, script, seconds=3):
    for _ in range(int(seconds / 0.05)):
        if driver.execute_script("return " + script):
            return True
        time.sleep(0.05)
    return False


def suggestions(driver, size):
    """The search box's suggestions as a combobox: typed into, announced, chosen by arrows,
    opened by Enter, closed by Escape; Enter with nothing chosen still searches."""
    expanded = "document.getElementById('site-search').getAttribute('aria-expanded') === 'true'"
    driver.get(BASE + "/")
    type_into(driver, "#site-search", "keyb")
    check(wait_for(driver, expanded), f"suggestions at {size}: two characters open the list")
    box = ax_node(driver, "combobox", "Search")
    check(box is not None and box["properties"].get("expanded") is True and box["properties"].get("autocomplete") == "list",
          f"suggestions at {size}: the box is an expanded combobox with a list ({box})")
    status = driver.execute_script("return document.querySelector('form.site-search [role=status]').textContent")
    check("suggestion" in status, f"suggestions at {size}: the number of suggestions is announced ({status!r})")
    press(driver, Keys.ARROW_DOWN)
    chosen = active(driver, "document.getElementById(e.getAttribute('aria-activedescendant'))?.getAttribute('href')")
    option = ax_node(driver, "option", "Keyboard Crew")
    check(active(driver, "e.id") == "site-search" and chosen == "/crews/keys" and option and option["properties"].get("selected") is True,
          f"suggestions at {size}: Down chooses the crew while the focus stays in the box ({chosen}, {option})")
    press(driver, Keys.ARROW_UP)
    check(active(driver, "document.getElementById(e.getAttribute('aria-activedescendant'))?.classList.contains('suggest-all')"),
          f"suggestions at {size}: Up from the first option wraps to the search itself")
    press(driver, Keys.ARROW_DOWN)
    submit(driver, Keys.ENTER)
    check(driver.current_url.endswith("/crews/keys"), f"suggestions at {size}: Enter opens the chosen crew ({driver.current_url})")

    driver.get(BASE + "/")
    type_into(driver, "#site-search", "runn")
    check(wait_for(driver, expanded), f"suggestions at {size}: people are suggested")
    press(driver, Keys.ESCAPE)
    check(wait_for(driver, "!(" + expanded + ")") and active(driver, "e.value") == "runn", f"suggestions at {size}: Escape closes the list")
    press(driver, Keys.ESCAPE)
    check(active(driver, "e.value") == "", f"suggestions at {size}: a second Escape empties the box")
    driver.switch_to.active_element.send_keys("Morning")
    submit(driver, Keys.ENTER)
    check("/search?q=Morning" in driver.current_url and "loop done, 10 km" in driver.page_source,
          f"suggestions at {size}: Enter with nothing chosen searches the posts")


def signed_in(driver, member):
    driver.get(BASE + "/healthz")
    driver.delete_all_cookies()
    driver.add_cookie({"name": "moim_session", "value": member.session, "path": "/"})


def main():
    binary = sys.argv[1]
    data = demo_site(binary, "moim-keyboard-", 4)
    server = subprocess.Popen([binary, "serve", "--no-supervise", "--port", str(screenshots.PORT), "--data", data, "--quiet"])
    photo = os.path.join(tempfile.mkdtemp(prefix="moim-keyboard-photo-"), "sunrise.png")
    with open(photo, "wb") as file:
        file.write(png(320, 240, (255, 140, 90)))
    drivers = []
    try:
        wait_until_serving()
        owner, member = Member("runner1").log_in(), Member("runner2").log_in()
        crew = owner.post("/crews", [("name", "Keyboard Crew"), ("slug", "keys"), ("sport", "running"), ("region", "seoul"),
                                     ("description", "Runs by keys."), ("meeting_time", "Sat 7:00"), ("meeting_place", "Gate 1"),
                                     ("fee_amount", "0"), ("fee_currency", "KRW"), ("fee_period", "month"), ("join_policy", "open"),
                                     ("member_cap", "30")], page="/crews/new")
        meetup = host_meetup(owner, capacity=5)
        post = owner.post("/posts", [("body", "Morning loop done, 10 km. #keys")], page="/posts/new")

        for width in (375, 1280):
            driver = chromium(width=width)
            driver.set_window_size(width, 900)  # below Chromium's smallest window when given as a flag
            drivers.append(driver)
            size = f"{width} px"

            suggestions(driver, size)

            # A newcomer signs up: a mistake first, announced, then right.
            driver.get(BASE + "/signup")
            page_checks(driver, f"signup at {size}")
            driver.get(BASE + "/signup")
            username = f"keys{width}"
            type_into(driver, "#username", username)
            type_into(driver, "#email", f"{username}@example.com")
            type_into(driver, "#display_name", "Key Runner")
            type_into(driver, "#password", "a long enough password")
            type_into(driver, "#password_confirmation", "another password")
            submit(driver, Keys.ENTER)
            check(active(driver, "e.classList.contains('form-error')"), f"signup at {size}: the error summary takes the focus")
            described = driver.execute_script("""const field = document.getElementById('password_confirmation');
                const ids = (field.getAttribute('aria-describedby') || '').split(' ');
                return field.getAttribute('aria-invalid') === 'true' && ids.some(id => (document.getElementById(id)?.classList.contains('field-error')))""")
            check(described, f"signup at {size}: the field with the mistake is described by its error")
            type_into(driver, "#password", "a long enough password")
            type_into(driver, "#password_confirmation", "a long enough password")
            # The agreements, each its own box, none ticked beforehand; then the age.
            for box in ("input[name=agree_terms]", "input[name=agree_privacy]", "input[name=age][value='14plus']"):
                check(tab_to(driver, box), f"signup at {size}: Tab reaches {box}")
                press(driver, Keys.SPACE)
            check(driver.execute_script("return ['agree_terms', 'agree_privacy'].every(n => document.querySelector(`input[name=${n}]`).checked)"
                                        " && document.querySelector('input[name=age][value=\"14plus\"]').checked"),
                  f"signup at {size}: the space bar ticks each agreement")
            check(tab_to(driver, "form[action='/signup'] button[type=submit]"), f"signup at {size}: Tab reaches the button")
            submit(driver, Keys.ENTER)
            check(driver.current_url.rstrip("/") == BASE and "signup" not in driver.current_url,
                  f"signup at {size}: signed up and on the home page ({driver.current_url})")

            # A member writes a post with a photo.
            signed_in(driver, owner)
            driver.get(BASE + "/")
            page_checks(driver, f"home at {size}")
            driver.get(BASE + "/")
            check(tab_to(driver, "a.write"), f"write at {size}: Tab reaches the write link")
            submit(driver, Keys.ENTER)
            check(driver.current_url.endswith("/posts/new"), f"write at {size}: Enter opens the form")
            type_into(driver, "textarea[name=body]", f"Keys only at {size} #keys")
            check(tab_to(driver, "input[type=file]"), f"write at {size}: Tab reaches the photo field")
            driver.switch_to.active_element.send_keys(photo)
            check(tab_to(driver, "form[action='/posts'] button[type=submit]"), f"write at {size}: Tab reaches the submit button")
            submit(driver, Keys.ENTER)
            check("/posts/" in driver.current_url and f"Keys only at {size}" in driver.page_source
                  and driver.execute_script("return document.querySelectorAll('main picture img').length") > 0,
                  f"write at {size}: the post shows, with its photo")

            # Another member joins the crew, applies to the meetup, and reports a post.
            signed_in(driver, member)
            driver.get(BASE + crew)
            page_checks(driver, f"crew at {size}")
            driver.get(BASE + crew)
            check(tab_to(driver, "form.join-form button"), f"crew at {size}: Tab reaches Join")
            submit(driver, " ")
            check("Keyboard Crew" in driver.page_source and driver.execute_script("return !document.querySelector('form.join-form')"),
                  f"crew at {size}: Space joined the crew")
            if width == 375:
                # Leaving again, for the desktop pass.
                member.post(crew + "/leave", [], page=crew)

            driver.get(BASE + meetup)
            page_checks(driver, f"meetup at {size}")
            driver.get(BASE + meetup)
            check(tab_to(driver, f"form[action='{meetup}/apply'] button"), f"meetup at {size}: Tab reaches the apply button")
            submit(driver, Keys.ENTER)
            check("You are going!" in driver.page_source, f"meetup at {size}: Enter applied")
            if width == 375:
                member.post(meetup + "/cancel", [], page=meetup)

            driver.get(BASE + post)
            page_checks(driver, f"post at {size}")
            driver.get(BASE + post)
            check(tab_to(driver, "details.report > summary"), f"report at {size}: Tab reaches Report")
            press(driver, Keys.ENTER)
            check(tab_to(driver, "details.report select[name=reason]"), f"report at {size}: Tab reaches the reason")
            press(driver, Keys.ARROW_DOWN)
            chosen = active(driver, "e.value")
            type_into(driver, "details.report input[name=note]", "Checking the keyboard")
            submit(driver, Keys.ENTER)
            check(chosen and "The moderators will look at it." in driver.page_source, f"report at {size}: an arrow chose {chosen!r}, Enter sent it")
            database = sqlite3.connect(os.path.join(data, "moim.sqlite"))
            database.execute("DELETE FROM reports")
            database.commit()
            database.close()

        # Feedback in a retro: the member (in the crew since the last pass) writes to the owner.
        start = time.strftime("%Y-%m-%dT%H:%M", time.localtime(time.time() + 86400))
        retro = owner.post(crew + "/retros", [("name", "Keys"), ("starts_at", start)], page=crew + "/retros")
        driver = drivers[-1]
        signed_in(driver, member)
        driver.get(BASE + retro)
        page_checks(driver, "retro")
        driver.get(BASE + retro)
        check(tab_to(driver, "#fb-recipient"), "retro: Tab reaches the recipient")
        check(tab_to(driver, "#fb-kind"), "retro: Tab reaches the kind")
        press(driver, Keys.ARROW_DOWN)
        check(active(driver, "e.value") == "stop", "retro: an arrow picks another kind")
        type_into(driver, "#fb-keyword", "Steady")
        type_into(driver, "#fb-description", "Even splits all the way.")
        check(tab_to(driver, f"form[action='{retro}/feedback'] button[type=submit]"), "retro: Tab reaches the submit button")
        submit(driver, Keys.ENTER)
        check("Steady" in driver.page_source, "retro: the feedback is written")
    finally:
        for driver in drivers:
            driver.quit()
        server.terminate()
        server.wait()
    print(f"{len(failures)} failed" if failures else "every keyboard flow passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
