"""What the stream benchmarks share (Benchmarks/live.py, Benchmarks/talk.py): members signed in
by writing sessions into a site's SQLite database, an event stream read as it arrives, and
percentiles."""
import asyncio
import base64
import hashlib
import os
import sqlite3
import time
import urllib.parse

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
        self.messages = []  # (data, arrival) of the `message` events alone
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
                    if name == "message":
                        self.messages.append((data, arrival))
                    self.ready.set()


def percentile(values, fraction):
    values = sorted(values)
    return values[min(len(values) - 1, int(fraction * len(values)))]


async def post_form(path, cookie, fields):
    """A form posted as a signed-in member; anything but a redirect stops the benchmark."""
    body = urllib.parse.urlencode(fields).encode()
    reader, writer = await asyncio.open_connection(HOST, PORT)
    writer.write(f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\nCookie: moim_session={cookie}\r\n"
                 f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)
    answer = await reader.read()
    writer.close()
    if not answer.startswith(b"HTTP/1.1 303"):
        raise RuntimeError(answer[:200].decode(errors="replace"))


async def open_all(listeners):
    """Opens the streams 500 at a time, each batch once every one of it has its first event;
    returns their tasks."""
    tasks = []
    for start in range(0, len(listeners), 500):
        batch = listeners[start:start + 500]
        tasks += [asyncio.ensure_future(listener.run()) for listener in batch]
        await asyncio.wait_for(asyncio.gather(*(listener.ready.wait() for listener in batch)), 60)
    return tasks


async def delivery(listeners, send, messages=20):
    """Sends `messages` messages one after another with `send(text)`; returns the milliseconds
    from each send to its arrival (a `message` event holding its text) at every listener."""
    latencies = []
    for number in range(messages):
        marker = f"bench message {number}"
        sent = time.monotonic()
        await send(marker)
        # Counted, not searched, while they arrive: the client must not slow its own reading.
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not all(len(listener.messages) > number for listener in listeners):
            await asyncio.sleep(0.01)
        arrived = [next((at for data, at in reversed(listener.messages) if marker in data), None) for listener in listeners]
        missing = sum(1 for at in arrived if at is None)
        latencies += [(at - sent) * 1000 for at in arrived if at is not None]
        if missing:
            print(f"message {number}: {missing} listeners had nothing after 5 s")
        await asyncio.sleep(0.3)
    return latencies
