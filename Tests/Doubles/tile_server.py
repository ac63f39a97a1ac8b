"""A map tile server for screenshots and trying maps out without the internet.

Serves /{z}/{x}/{y}.png on 127.0.0.1: each tile a colour of its own with its z/x/y written on
it and a darker edge, so a screenshot shows which tile went where (the same tiles the Swift
tests make, Tests/Support/TestTiles.swift).

    python3 Tests/Doubles/tile_server.py PORT
"""
import http.server
import re
import struct
import sys
import zlib

FONT = {"0": [7, 5, 5, 5, 7], "1": [2, 6, 2, 2, 7], "2": [7, 1, 7, 4, 7], "3": [7, 1, 7, 1, 7], "4": [5, 5, 7, 1, 1],
        "5": [7, 4, 7, 1, 7], "6": [7, 4, 7, 5, 7], "7": [7, 1, 1, 1, 1], "8": [7, 5, 7, 5, 7], "9": [7, 5, 7, 1, 7],
        "/": [1, 1, 2, 4, 4]}


def tile(z, x, y):
    size = 256
    seed = ((z * 73856093) ^ (x * 19349663) ^ (y * 83492791)) & 0xFFFFFFFF
    base = [200 + seed % 40, 215 + (seed >> 8) % 35, 190 + (seed >> 16) % 40]
    pixels = bytearray(bytes(base) * size * size)
    for i in range(size):
        for j in (0, 1):
            for (r, c) in ((i, j), (j, i)):
                o = (r * size + c) * 3
                pixels[o:o + 3] = bytes(v // 2 for v in base)
    for line, text in enumerate((f"{z}/", f"{x}/", f"{y}")):
        draw(pixels, size, text, left=16, top=16 + line * 40)
    raw = b"".join(b"\x00" + bytes(pixels[r * size * 3:(r + 1) * size * 3]) for r in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def draw(pixels, size, text, left, top):
    """Writes `text` in 3 x 5 digits, 6 pixels a dot."""
    for ch in text:
        for dot_row, bits in enumerate(FONT.get(ch, [])):
            for dot_col in range(3):
                if not bits & (4 >> dot_col):
                    continue
                for r in range(top + dot_row * 6, min(size, top + dot_row * 6 + 6)):
                    for c in range(left + dot_col * 6, min(size, left + dot_col * 6 + 6)):
                        pixels[(r * size + c) * 3:(r * size + c) * 3 + 3] = b"\x28\x32\x46"
        left += 24


class Tiles(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        match = re.fullmatch(r"/(\d+)/(\d+)/(\d+)\.png", self.path)
        if not match:
            self.send_error(404)
            return
        z, x, y = map(int, match.groups())
        if z > 19 or x >= 2 ** z or y >= 2 ** z:
            self.send_error(404)
            return
        body = tile(z, x, y)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Tiles).serve_forever()
