"""A run recorded in headless Chromium as a 390-pixel phone: geolocation granted and moved along
a real 5 km route on Yeouido by the DevTools protocol (`Emulation.setGeolocationOverride`), with
the page's clock running 25 times fast (the test's stand-in for 25 minutes of running), a fix of
80 m accuracy and a 2 km teleport that must not count, a reload in the middle (the run resumes
with every point), the network cut at the finish (the run waits on the phone and arrives once
when it is back), and the kilometre announcement read from the accessibility tree. The record's
distance is checked against the route's length on the ellipsoid by GeographicLib. With an output
folder, screenshots of the recorder in English and Korean.

Run by Tests/Browser/recording; usage: recording.py MOIM_BINARY [SCREENSHOT_DIR]"""

import os
import sqlite3
import subprocess
import sys
import time

from geographiclib.geodesic import Geodesic
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select
from selenium.webdriver.support.wait import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "script"))  # screenshots.py: driving the site
from screenshots import BASE, PORT, TILE_PORT, Checks, demo_site, sign_in, wait_until_serving  # noqa: E402

check = Checks()
SPEED_UP = 25      # page seconds per real second
PACE = 3.3         # metres a second: 5:03 per km
EVERY = 2.0        # page seconds between fixes
# Along the Han River on Yeouido, from the 63 Building north-west to the park's tip and back.
WAYPOINTS = [(37.51965, 126.94019), (37.52318, 126.93487), (37.52694, 126.92905), (37.53064, 126.92353),
             (37.53332, 126.91842), (37.53118, 126.91655), (37.52775, 126.92161), (37.52382, 126.92771),
             (37.52016, 126.93335), (37.51752, 126.93753)]
LENGTH = 5050.0


def route():
    """Fixes every EVERY seconds at PACE along the waypoints, up to LENGTH metres: [(lat, lon)], metres."""
    geodesic = Geodesic.WGS84
    fixes, covered, step = [WAYPOINTS[0]], 0.0, PACE * EVERY
    for (lat1, lon1), (lat2, lon2) in zip(WAYPOINTS, WAYPOINTS[1:]):
        line = geodesic.InverseLine(lat1, lon1, lat2, lon2)
        at = step - (covered % step) if covered % step else step
        while at <= line.s13 and covered + at <= LENGTH:
            point = line.Position(at)
            fixes.append((point["lat2"], point["lon2"]))
            at += step
        covered += line.s13
        if covered >= LENGTH:
            break
    length = sum(geodesic.Inverse(a[0], a[1], b[0], b[1])["s12"] for a, b in zip(fixes, fixes[1:]))
    return fixes, length


def browser(language="en"):
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--lang={language}"]:
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0}})
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": BASE, "permissions": ["geolocation"]})
    return driver


def fast_clock(driver, real_start, page_start):
    """The page's Date.now() runs SPEED_UP times fast from `page_start` (ms), the same across reloads."""
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": f"""
        (() => {{ const real = Date.now.bind(Date);
          Date.now = () => {page_start} + (real() - {real_start}) * {SPEED_UP}; }})();"""})


def move(driver, lat, lon, accuracy=5):
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": lat, "longitude": lon, "accuracy": accuracy})


def role(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f"#recorder [data-role={name}]")


def button(driver, name):
    return driver.find_element(By.CSS_SELECTOR, f"#recorder [data-action={name}]:not([hidden])")


def announcement(driver):
    """The live region's text as the accessibility tree gives it to a screen reader."""
    tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    for node in tree:
        properties = {p["name"]: p.get("value", {}).get("value") for p in node.get("properties", [])}
        if properties.get("live") == "assertive":
            texts = [n.get("name", {}).get("value", "") for n in tree if n.get("parentId") == node["nodeId"]]
            return " ".join(texts) or node.get("name", {}).get("value", "")
    return None


def records(data):
    with sqlite3.connect(os.path.join(data, "moim.sqlite")) as database:
        return database.execute("SELECT distanceMeters, durationSeconds, splits, length(track), clientKey, visibility, note FROM records").fetchall()


def main():
    binary = sys.argv[1]
    output = sys.argv[2] if len(sys.argv) > 2 else None
    fixes, length = route()
    data = demo_site(binary, "moim-recorder-", 2)
    # The map under the route: tiles that say where they are (Tests/Doubles/tile_server.py).
    tiles = subprocess.Popen([sys.executable, "Tests/Doubles/tile_server.py", str(TILE_PORT)])
    server = subprocess.Popen([binary, "serve", "--no-supervise", "--port", str(PORT), "--data", data, "--quiet",
                               "--tile-url", f"http://127.0.0.1:{TILE_PORT}/{{z}}/{{x}}/{{y}}.png", "--tile-attribution", "© Test tiles",
                               "--tile-timeout", "10"])
    driver = None
    try:
        wait_until_serving()
        # JavaScript off: the record page is the form it always was, the recorder hidden.
        page = subprocess.run(["curl", "-s", "-b", "moim_session=none", BASE + "/records/new"], capture_output=True, text=True).stdout
        driver = browser()
        sign_in(driver, "runner1")
        clock_start = int(time.time() * 1000)
        fast_clock(driver, clock_start, clock_start - 50 * 60 * 1000)  # the run begins 50 minutes ago, on the page's clock
        move(driver, *fixes[0])
        driver.get(BASE + "/records")
        link = driver.find_element(By.CSS_SELECTOR, "a[href='/records/new#recorder']")
        check(link.is_displayed(), "the records page offers 'Record a run' where the browser has a location")
        link.click()
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "recorder").is_displayed())
        controls = driver.find_elements(By.CSS_SELECTOR, "#recorder [data-role=controls] button:not([hidden])")
        check(all(c.size["height"] >= 48 for c in controls), "the recorder's buttons are at least 48 px tall")
        # Only me, with a note: chosen before Start, kept through the reload below.
        Select(driver.find_element(By.ID, "visibility")).select_by_value("private")
        driver.find_element(By.ID, "note").send_keys("Tempo by the river")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button(driver, "start"))
        button(driver, "start").click()
        real_start = time.time() * 1000

        reloaded = teleported = weak = announced = False
        for index, (lat, lon) in enumerate(fixes):
            due = real_start + index * EVERY * 1000 / SPEED_UP
            if time.time() * 1000 > due + EVERY * 1000 / SPEED_UP and index + 1 < len(fixes):
                # Behind after a slow step of the test (a reload, the accessibility tree): the runner
                # ran on meanwhile, as through a GPS gap, rather than in a burst no runner could make.
                continue
            time.sleep(max(0, (due - time.time() * 1000) / 1000))
            covered = index * PACE * EVERY
            if not weak and covered > 1200:
                move(driver, lat + 0.0006, lon, accuracy=80)  # 67 m off, and says so
                time.sleep(0.05)
                weak = True
                check("±80" in role(driver, "status").text, "a fix of 80 m accuracy is not counted and the page says why")
            if not teleported and covered > 2000:
                move(driver, lat + 0.018, lon)  # 2 km north, for one fix
                time.sleep(EVERY * 1000 / SPEED_UP / 1000)
                teleported = True
            move(driver, lat, lon)
            if not announced and covered > 1150:
                announced = True
                spoken = announcement(driver) or ""
                check("1 km" in spoken and "Last km" in spoken, f"screen readers hear the first kilometre: {spoken!r}")
            if not reloaded and covered > 2600:
                reloaded = True
                kept = len(driver.execute_script("return document.querySelector('[data-role=route]').getAttribute('points').split(' ')"))
                driver.refresh()
                WebDriverWait(driver, 10).until(lambda d: role(d, "resume").is_displayed())
                check("was not finished" in role(driver, "resume-text").text, "after a reload the page offers to resume the run")
                after = len(driver.execute_script("return document.querySelector('[data-role=route]').getAttribute('points').split(' ')"))
                check(after >= kept, f"the resumed run has every point it had ({after} of {kept})")
                check(driver.find_element(By.ID, "visibility").get_attribute("value") == "private"
                      and driver.find_element(By.ID, "note").get_attribute("value") == "Tempo by the river",
                      "and the choices made before Start: Only me, and the note")
                if output:
                    driver.execute_script("scrollTo(0, document.getElementById('recorder').offsetTop - 110)")
                    time.sleep(0.3)
                    driver.save_screenshot(os.path.join(output, "resume-phone-en.png"))
                button(driver, "continue").click()
            if index == len(fixes) * 3 // 4:
                loaded = driver.execute_script("return performance.getEntriesByType('resource').filter(e => e.name.includes('/tiles/')).length")
                check(loaded > 0, f"the route is drawn on the site's map tiles ({loaded} fetched)")
                if output:
                    driver.execute_script("scrollTo(0, document.getElementById('recorder').offsetTop - 110)")
                    time.sleep(0.5)
                    driver.save_screenshot(os.path.join(output, "recording-phone-en.png"))

        time.sleep(0.3)
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        button(driver, "finish").click()
        WebDriverWait(driver, 10).until(lambda d: "offline" in role(d, "status").text.lower())
        check(records(data) == [], "finished offline: the run waits on the phone, nothing reached the server")
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        for _ in range(100):
            if records(data):
                break
            time.sleep(0.1)
        if not records(data):
            driver.get(BASE + "/records")  # no Background Sync here: the next visit sends it
            time.sleep(1)
        WebDriverWait(driver, 15).until(lambda d: "/records/" in d.current_url and d.current_url.rstrip("/").split("/")[-1].isdigit()
                                        or records(data))
        driver.get(BASE + "/records")
        time.sleep(1)
        saved = records(data)
        check(len(saved) == 1, f"the run arrived once when the network was back ({len(saved)} records)")
        if saved:
            distance, duration, splits, track, key, visibility, note = saved[0]
            check(visibility == "private" and note == "Tempo by the river", f"saved as chosen before the reload: {visibility}, {note!r}")
            check(abs(distance - length) / length < 0.01, f"its distance {distance} m is within 1% of the route's {length:.0f} m")
            check(abs(duration - length / PACE) / (length / PACE) < 0.05, f"its moving time {duration} s is the run's ({length / PACE:.0f} s)")
            check(len((splits or "").split(",")) == 5, f"five kilometre splits: {splits}")
            check(track and track > 1000 and key, "its route is stored, with the run's key")
        check('id="recorder" hidden' in page or "recorder" not in page, "with JavaScript off the recorder stays hidden")

        # Location refused: the page says so and the form is there to type the run in.
        driver.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})
        driver.execute_cdp_cmd("Browser.setPermission", {"origin": BASE, "permission": {"name": "geolocation"}, "setting": "denied"})
        driver.get(BASE + "/records/new#recorder")
        button(driver, "start").click()
        try:
            WebDriverWait(driver, 10).until(lambda d: "may not use" in role(d, "note").text)
        except Exception:
            pass
        check("may not use" in role(driver, "note").text and driver.find_element(By.ID, "distance").is_displayed(),
              f"with location refused the page says so, and the form stays to type the run in: {role(driver, 'note').text!r}")
        driver.execute_cdp_cmd("Browser.setPermission", {"origin": BASE, "permission": {"name": "geolocation"}, "setting": "granted"})

        # Auto-pause: standing still for ten seconds pauses, moving on records again in a new
        # segment; a reload, then "Save it as it is" saves the run without the time stood still.
        driver.refresh()
        time.sleep(0.5)
        check(not role(driver, "resume").is_displayed(), "a refused start leaves no run to resume")
        driver.find_element(By.CSS_SELECTOR, "#recorder [data-setting=autopause]").click()
        move(driver, *fixes[0])
        button(driver, "start").click()
        start, stood = time.time(), False
        plan = list(range(0, 60)) + [60] * 40 + list(range(61, 120))  # 60 fixes running, 80 s standing, 59 more
        for step, index in enumerate(plan):
            time.sleep(max(0, start + step * EVERY / SPEED_UP - time.time()))
            move(driver, *fixes[index])
            if step == 99:
                stood = "standing still" in role(driver, "status").text
        check(stood, "standing still for ten seconds pauses the run by itself")
        # The next fixes resume it; on a busy machine the page may take a moment to say so.
        try:
            WebDriverWait(driver, 5).until(lambda d: role(d, "status").text == "Recording")
        except Exception:  # noqa: BLE001
            pass
        check(role(driver, "status").text == "Recording", "moving on records again")
        driver.refresh()
        WebDriverWait(driver, 10).until(lambda d: role(d, "resume").is_displayed())
        button(driver, "keep").click()
        WebDriverWait(driver, 15).until(lambda d: len(records(data)) == 2)
        second = records(data)[1]
        # Moving time: the running, and at most the ten seconds (and a tick of the page's clock)
        # before the pause began; never the 80 s stood still.
        check(118 * EVERY - 5 < second[1] < 118 * EVERY + 40, f"saved as it was, the time stood still left out ({second[1]} s)")

        if output:
            # The recorder in Korean, a few hundred metres into a run.
            driver.quit()
            driver = browser("ko")
            sign_in(driver, "runner2")
            driver.get(BASE + "/settings")
            fast_clock(driver, int(time.time() * 1000), int(time.time() * 1000) - 600_000)
            driver.add_cookie({"name": "moim_lang", "value": "ko", "path": "/"})
            move(driver, *fixes[0])
            driver.get(BASE + "/records/new#recorder")
            WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "recorder").is_displayed())
            button(driver, "start").click()
            start = time.time()
            for index, (lat, lon) in enumerate(fixes[:180]):
                time.sleep(max(0, start + index * EVERY / SPEED_UP - time.time()))
                move(driver, lat, lon)
            time.sleep(1.2)
            driver.execute_script("scrollTo(0, document.getElementById('recorder').offsetTop - 110)")
            time.sleep(0.5)
            driver.save_screenshot(os.path.join(output, "recording-phone-ko.png"))
    finally:
        if driver:
            driver.quit()
        server.terminate()
        server.wait()
        tiles.terminate()
    check.finish()


if __name__ == "__main__":
    main()
