"""Measures what a phone downloads for a feed of photos. Twenty posts of real photographs
(daylight, dusk and night, faces, a crowded street, indoors; taken from Debian's wallpaper
packages and two PyPI wheels' sample images, which script/phone-photos fetches) are posted to
a fresh site; its signed-in feed is opened in headless Chromium as a 375- and a 390-pixel phone
at 2x and 3x, scrolled to its end, and the bytes of the images it loaded are added up. Safari's
choice is worked out from the same page by WebKit's rule (the first candidate dense enough for
the screen), and its bytes fetched. Both are set against the uploads' bytes and against the same
photos as a phone's camera writes them (JPEG at quality 92), since the packages' files were
recompressed to a third of that. Also prints the page's cumulative layout shift.

Run by script/phone-photos; usage: phone_photos.py MOIM_BINARY PHOTO_SOURCES_FOLDER PIP"""

import html
import os
import re
import subprocess
import sys
import time
from collections import Counter

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, os.path.dirname(__file__))
from photo_sources import extract, fetch  # noqa: E402
from screenshots import BASE, PORT, Member, demo_site, wait_until_serving  # noqa: E402

POSTS = 20
PHONES = [(375, 2.0), (375, 3.0), (390, 2.0), (390, 3.0)]

# The layout shifts since the page began, from the browser's own record of them.
LAYOUT_SHIFT = """
const done = arguments[arguments.length - 1];
let total = 0;
new PerformanceObserver(list => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
}).observe({type: "layout-shift", buffered: true});
setTimeout(() => done(total), 500);
"""

IMAGE_BYTES = """
return performance.getEntriesByType("resource")
  .filter(entry => entry.initiatorType === "img" && entry.name.includes("/media/"))
  .map(entry => [entry.name, entry.encodedBodySize]);
"""


def as_a_camera_writes_it(path):
    """The bytes of `path`'s pixels as a phone's camera writes them: JPEG at quality 92, 4:2:0."""
    camera = path + ".camera.jpg"
    subprocess.run(["vips", "jpegsave", path, camera, "--Q", "92", "--subsample-mode", "on"], check=True, stderr=subprocess.DEVNULL)
    return os.path.getsize(camera)


def pictures(page):
    """Each photo of the feed: (srcset of its WebP source, its sizes)."""
    found = re.findall(r'<div class="photos[^"]*">.*?<source type="image/webp" srcset="([^"]+)" sizes="([^"]+)"', page, re.S)
    return [([(url, int(width[:-1])) for url, width in (entry.split(" ") for entry in html.unescape(srcset).split(", "))],
             html.unescape(sizes)) for srcset, sizes in found]


def slot_width(sizes, viewport, density):
    """The CSS width `sizes` gives on this screen: media conditions with min-resolution and max-width."""
    for entry in sizes.split(", "):
        *conditions, length = entry.rsplit(" ", 1)
        matches = True
        for condition in re.findall(r"\(([a-z-]+): ([0-9.]+)(dppx|px)\)", " ".join(conditions)):
            feature, value, _ = condition
            matches &= density >= float(value) if feature == "min-resolution" else viewport <= float(value)
        if matches:
            return viewport * float(length[:-2]) / 100 if length.endswith("vw") else float(length[:-2])
    raise ValueError(sizes)


def label(url):
    """A loaded file by its width and format: `828.webp`, `full.jpg`, or `original`."""
    match = re.search(r"-(\d+|full)\.(webp|jpg)$", url)
    return f"{match.group(1)}.{match.group(2)}" if match else "original"


def webkit_choice(candidates, slot, density):
    """WebKit's pick (HTMLSrcsetParser's pickBestImageCandidate): by density, the first at least as dense as the screen."""
    ranked = sorted(candidates, key=lambda candidate: candidate[1])
    return next((url for url, width in ranked if width / slot >= density), ranked[-1][0])


def chromium(width, density):
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]:
        options.add_argument(argument)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": 812, "pixelRatio": density}})
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def chromium_bytes(author, width, density, screenshot):
    """The images Chromium loaded for the whole feed (scrolled to its end) and the layout shift on arrival."""
    driver = chromium(width, density)
    try:
        driver.get(BASE + "/healthz")
        driver.add_cookie({"name": "moim_session", "value": author.session, "path": "/"})
        driver.get(BASE + "/")
        time.sleep(1)
        shift = driver.execute_async_script(LAYOUT_SHIFT)
        if screenshot:
            driver.save_screenshot(screenshot)
        for _ in range(60):
            driver.execute_script("window.scrollBy(0, 600)")
            time.sleep(0.15)
            if driver.execute_script("return [...document.querySelectorAll('.photos img')].every(i => i.complete && i.currentSrc)"):
                break
        time.sleep(0.5)
        return driver.execute_script(IMAGE_BYTES), shift
    finally:
        driver.quit()


def main():
    binary, sources, pip = sys.argv[1:4]
    fetch(sources, pip)
    data = demo_site(binary, "moim-phone-photos-", 2)
    photos = extract(sources, data)
    server = subprocess.Popen([binary, "serve", "--no-supervise", "--port", str(PORT), "--data", data, "--quiet"])
    try:
        wait_until_serving()
        author = Member("runner1").log_in()
        uploaded = camera = 0
        print(f"{POSTS} posts of one photo each, from {len(photos)} photographs:")
        for number in range(POSTS):
            kind, path = photos[number % len(photos)]
            with open(path, "rb") as file:
                photo = file.read()
            uploaded += len(photo)
            camera += as_a_camera_writes_it(path)
            if number < len(photos):
                size = " x ".join(subprocess.run(["vipsheader", "-f", side, path], capture_output=True, text=True).stdout.strip()
                                  for side in ("width", "height"))
                print(f"  {kind}: {size}, {len(photo):,} bytes")
            author.post("/posts", [("body", f"Run {number + 1}: {kind}")], page="/posts/new",
                        files=[("photos", os.path.basename(path), "image/jpeg", photo)])
        print(f"uploaded: {uploaded:,} bytes; the same photos as a phone's camera writes them (Q92): {camera:,} bytes")

        _, _, page = author.get("/")
        shown = pictures(page)
        sizes_of = {}

        def size_of(url):
            if url not in sizes_of:
                sizes_of[url] = len(author.opener.open(BASE + url).read())
            return sizes_of[url]

        print(f"\n{'phone':>10} | {'Chromium':>22} | {'Safari (WebKit rule)':>22} | {'% of uploads':>12} | {'% of camera files':>17}")
        worst = 0.0
        shifts = []
        for width, density in PHONES:
            screenshot = os.path.join(data, f"feed-{width}-{density:g}x.png") if (width, density) == (375, 3.0) else None
            loaded, shift = chromium_bytes(author, width, density, screenshot)
            shifts.append(shift)
            chromium_total = sum(size for _, size in loaded)
            safari = [webkit_choice(candidates, slot_width(sizes, width, density), density) for candidates, sizes in shown]
            safari_total = sum(size_of(url) for url in safari)
            chosen = {"Chromium": Counter(label(url) for url, _ in loaded), "Safari": Counter(label(url) for url in safari)}
            print(f"{f'{width} @ {density:g}x':>10} | {chromium_total:>12,} ({len(loaded):>2} img) | {safari_total:>12,} ({len(safari):>2} img) | "
                  f"{100 * max(chromium_total, safari_total) / uploaded:>11.2f}% | {100 * max(chromium_total, safari_total) / camera:>16.2f}%"
                  f"   {'; '.join(f'{browser}: ' + ', '.join(f'{count} x {name}' for name, count in sorted(files.items())) for browser, files in chosen.items())}")
            worst = max(worst, max(chromium_total, safari_total) / camera)
            if len(loaded) != POSTS or len(safari) != POSTS:
                print(f"  expected {POSTS} photos, Chromium loaded {len(loaded)}, the page has {len(safari)}")
                worst = float("inf")
        print(f"cumulative layout shift on arrival: {', '.join(f'{shift:.4f}' for shift in shifts)}")
        print(f"screenshot: {os.path.join(data, 'feed-375-3x.png')}")
        sys.exit(0 if worst <= 0.05 and max(shifts) == 0 else 1)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
