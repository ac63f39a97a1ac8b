"""What the stream benchmarks share (Benchmarks/live.py, Benchmarks/talk.py): members signed in
by writing sessions into a site's SQLite database, an event stream read as it arrives, and
percentiles."""
import asyncio
import base64
import hashlib
import os
import sqlite3
import time

HOST, PORT = "127.0.0.1", 0


def connect(host, port):
    """Where the streams and requests go."""
    global HOST, PORT
    HOST, PORT = host, port


def sign_in(database, members):
    """A session for each member id; returns their cookies (and CSRF tokens) in order."""
    now = time.strftime("%Y-%m-%d %H:%M:%S.000", time.gmtime())
    cookies = []
    with sqlite3.connect(database, timeout=30) as db:
        for member in members:
            token = os.urandom(32)
            csrf = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
            db.execute("INSERT INTO sessions (tokenHash, userID, csrfToken, createdAt, lastSeenAt) VALUES (?, ?, ?, ?, ?)",
                       (hashlib.sha256(token).digest(), member, csrf, now, now))
            cookies.append((base64.urlsafe_b64encode(token).rstrip(b"=").decode(), csrf))
    return cookies


class Stream:
    def __init__(self, path, cookie):
        self.path, self.cookie = path, cookie
        self.events = []  # (name, data, arrival)
        self.ready = asyncio.Event()

    async def run(self):
        reader, writer = await asyncio.open_connection(HOST, PORT)
        writer.write(f"GET {self.path} HTTP/1.1\r\nHost: {HOST}\r\nCookie: moim_session={self.cookie}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head.split(b"\r\n")[0].decode())
        buffer = b""
        while True:
            chunk = await reader.read(65536)
            if not chunk:
                return
            arrival = time.monotonic()
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                name = data = ""
                for line in block.decode().split("\n"):
                    if line.startswith("event: "):
                        name = line[7:]
                    elif line.startswith("data: "):
                        data = line[6:]
                if name:
                    self.events.append((name, data, arrival))
                    self.ready.set()


def percentile(values, fraction):
    values = sorted(values)
    return values[min(len(values) - 1, int(fraction * len(values)))]
