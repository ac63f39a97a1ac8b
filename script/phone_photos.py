"""Measures what a phone downloads for photos: a site whose posts carry real-size phone photos
(12-megapixel JPEGs with EXIF orientation and GPS, an iPhone HEIC), its signed-in feed opened in
headless Chromium emulating a 375-pixel phone at 3x, the bytes of the images the page actually
loaded against the uploads' bytes, and the page's cumulative layout shift.

Run by script/phone-photos; usage: phone_photos.py MOIM_BINARY"""

import os
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

sys.path.insert(0, os.path.dirname(__file__))
from screenshots import BASE, PORT, Member, demo_site, wait_until_serving  # noqa: E402

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


def make_photos(folder):
    """Six phone JPEGs (noise with a photo's spread: it compresses as a detailed photo does),
    sideways with EXIF orientation 6 and a GPS position, and one HEIC."""
    files = []
    for number in range(6):
        base = os.path.join(folder, f"photo{number}")
        subprocess.run(["vips", "gaussnoise", base + ".v", "4032", "3024", "--mean", str(90 + number * 20), "--sigma", "24"], check=True)
        subprocess.run(["vips", "cast", base + ".v", base + "-u.v", "uchar"], check=True)
        subprocess.run(["vips", "bandjoin", f"{base}-u.v {base}-u.v {base}-u.v", base + "-rgb.v"], check=True)
        subprocess.run(["vips", "copy", base + "-rgb.v", base + "-srgb.v", "--interpretation", "srgb"], check=True)
        subprocess.run(["vips", "jpegsave", base + "-srgb.v", base + ".jpg", "--Q", "92"], check=True)
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-Orientation#=6", "-GPSLatitude=37.5283", "-GPSLatitudeRef=N",
                        base + ".jpg"], check=True)
        files.append((base + ".jpg", "image/jpeg"))
    subprocess.run(["vips", "pngsave", os.path.join(folder, "photo0-srgb.v"), os.path.join(folder, "heic.png")], check=True)
    subprocess.run(["heif-enc", "-q", "50", "-o", os.path.join(folder, "iphone.heic"), os.path.join(folder, "heic.png")],
                   check=True, stdout=subprocess.DEVNULL)
    files.append((os.path.join(folder, "iphone.heic"), "image/heic"))
    return files


def main():
    binary = sys.argv[1]
    data = demo_site(binary, "moim-phone-photos-", 2)
    server = subprocess.Popen([binary, "serve", "--no-supervise", "--port", str(PORT), "--data", data, "--quiet"])
    try:
        wait_until_serving()
        author = Member("runner1").log_in()
        uploaded = 0
        for path, content_type in make_photos(data):
            with open(path, "rb") as file:
                photo = file.read()
            uploaded += len(photo)
            author.post("/posts", [("body", f"Morning run — {os.path.basename(path)}")], page="/posts/new",
                        files=[("photos", os.path.basename(path), content_type, photo)])

        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]:
            options.add_argument(argument)
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 375, "height": 812, "pixelRatio": 3.0}})
        options.binary_location = "/usr/bin/chromium"
        driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        try:
            driver.get(BASE + "/healthz")
            driver.add_cookie({"name": "moim_session", "value": author.session, "path": "/"})
            driver.get(BASE + "/")
            time.sleep(1)
            shift = driver.execute_async_script(LAYOUT_SHIFT)
            loaded = driver.execute_script(IMAGE_BYTES)
            natural = driver.execute_script(
                "return [...document.querySelectorAll('.photos img')].map(i => [i.currentSrc, i.naturalWidth, i.naturalHeight])")
            driver.save_screenshot(os.path.join(data, "feed-375.png"))
        finally:
            driver.quit()
        total = sum(size for _, size in loaded)
        print(f"uploaded: 7 photos, {uploaded:,} bytes (6 JPEGs of 4032 x 3024 with orientation 6, one HEIC)")
        for name, size in loaded:
            print(f"  loaded {name.split('/media/')[1]}: {size:,} bytes")
        print(f"image bytes the first feed page loaded at 375 px (3x): {total:,} ({100 * total / uploaded:.2f}% of the uploads)")
        shown = [(src, w, h) for src, w, h in natural if w > 0]
        # The JPEGs were stored sideways with orientation 6: upright, they are taller than wide.
        upright = sum(1 for src, w, h in shown if h > w)
        print(f"photos loaded: {len(shown)} of {len(natural)} (the rest wait below the screen); portrait (the JPEGs, turned upright): {upright}")
        print(f"cumulative layout shift: {shift:.4f}")
        print(f"screenshot: {os.path.join(data, 'feed-375.png')}")
        sys.exit(0 if total <= uploaded * 0.05 and shift == 0 else 1)
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
