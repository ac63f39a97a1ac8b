"""How each variant width looks and weighs at each quality, JPEG and WebP, on the real
photographs script/phone-photos uses: every photo scaled to each width (libvips, as Moim
does), encoded as Moim encodes it (libvips' jpegsave with optimize_coding and interlace,
webpsave), decoded again and scored with SSIMULACRA2 against the unencoded scale (90:
indistinguishable at 1:1, 70: high quality, 50: medium). Prints, per width, format and quality,
the bytes of all photos and the median and lowest score: the table `ImageProcessor.quality`
was chosen from.

Run by script/photo-quality; usage: photo_quality.py PHOTO_SOURCES_FOLDER PIP"""

import os
import statistics
import subprocess
import sys
import tempfile
from multiprocessing import Pool

from ssimulacra2 import compute_ssimulacra2

sys.path.insert(0, os.path.dirname(__file__))
from photo_sources import extract, fetch  # noqa: E402

WIDTHS = [320, 640, 828, 1280, 2048]
QUALITIES = [60, 65, 72, 75, 80]


def measure(job):
    """[(width, format, quality, bytes, score)] for one photo."""
    kind, path = job
    folder = tempfile.mkdtemp(prefix="moim-quality-")
    width = int(subprocess.run(["vipsheader", "-f", "width", path], capture_output=True, text=True, check=True).stdout)
    results = []
    for target in (w for w in WIDTHS if w < width):
        reference = os.path.join(folder, f"{target}.png")
        subprocess.run(["vips", "thumbnail", path, reference, str(target), "--height", "100000"], check=True, stderr=subprocess.DEVNULL)
        for format, options in [("jpg", "optimize_coding,interlace,strip"), ("webp", "strip")]:
            for quality in QUALITIES:
                encoded = os.path.join(folder, f"{target}-{quality}.{format}")
                subprocess.run(["vips", "copy", reference, f"{encoded}[Q={quality},{options}]"], check=True)
                decoded = encoded + ".png"
                subprocess.run(["vips", "copy", encoded, decoded], check=True)
                results.append((target, format, quality, os.path.getsize(encoded), compute_ssimulacra2(reference, decoded)))
    print(f"  measured {kind}", file=sys.stderr)
    return results


def main():
    sources, pip = sys.argv[1:3]
    fetch(sources, pip)
    photos = extract(sources, tempfile.mkdtemp(prefix="moim-quality-photos-"))
    with Pool(os.cpu_count()) as pool:
        everything = [row for rows in pool.map(measure, photos) for row in rows]
    print(f"{len(photos)} photographs; SSIMULACRA2 of each width, format and quality (median, lowest), and their bytes\n")
    print(f"{'width':>5} {'format':>6} {'Q':>3} {'photos':>6} {'bytes':>11} {'median':>7} {'lowest':>7}")
    for width in WIDTHS:
        for format in ("jpg", "webp"):
            for quality in QUALITIES:
                rows = [row for row in everything if row[:3] == (width, format, quality)]
                if rows:
                    scores = [row[4] for row in rows]
                    print(f"{width:>5} {format:>6} {quality:>3} {len(rows):>6} {sum(row[3] for row in rows):>11,} "
                          f"{statistics.median(scores):>7.1f} {min(scores):>7.1f}")
        print()


if __name__ == "__main__":
    main()
