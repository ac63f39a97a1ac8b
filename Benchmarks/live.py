"""Open event streams against a running Moim (script/bench --live runs it).

usage: live.py BASE_URL SQLITE_FILE SERVER_PID [STREAMS]

Signs in members by writing sessions into the demo site's database (their cookies are the
tokens whose SHA-256 it stores, as Moim does), then:
1. the server's memory with STREAMS idle keep-alive connections (each after one /healthz), for
   comparison, then with STREAMS open event streams (8 per member) and its CPU over 30 s idle;
2. a meetup with 1,000 people going (the host and 999 accepted), each with one of their
   streams on its page: the host writes 20 talk messages, and the time from sending each to
   its arrival at every listener is measured.
"""
import asyncio
import os
import re
import sqlite3
import sys
import time
import urllib.parse

import streams as shared
from streams import Stream, delivery, open_all, percentile, post_form, sign_in

BASE, DATABASE, PID = sys.argv[1], sys.argv[2], int(sys.argv[3])
STREAMS = int(sys.argv[4]) if len(sys.argv) > 4 else 10_000
PER_MEMBER = 8
GOING = 1_000
url = urllib.parse.urlsplit(BASE)
HOST, PORT = url.hostname, url.port
shared.connect(HOST, PORT)


def server_memory_kib():
    with open(f"/proc/{PID}/status") as status:
        return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))


def server_cpu_seconds():
    with open(f"/proc/{PID}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def idle_keepalive(count):
    """`count` connections that each asked for /healthz and stay open, idle."""
    connections = []
    for start in range(0, count, 500):
        batch = await asyncio.gather(*(asyncio.open_connection(HOST, PORT) for _ in range(min(500, count - start))))
        for reader, writer in batch:
            writer.write(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
        for reader, writer in batch:
            await reader.readuntil(b"ok")
        connections += batch
    return connections


async def main():
    members_needed = STREAMS // PER_MEMBER
    with sqlite3.connect(DATABASE, timeout=30) as db:
        members = [row[0] for row in db.execute("SELECT id FROM users ORDER BY id LIMIT ?", (members_needed,))]
        now = time.strftime("%Y-%m-%d %H:%M:%S.000", time.gmtime())
        later = time.strftime("%Y-%m-%d %H:%M:%S.000", time.gmtime(time.time() + 3 * 86400))
        cursor = db.execute(
            "INSERT INTO meetups (hostID, title, startsAt, durationMinutes, placeName, timeSlot, pace, style, capacity, signupMode,"
            " deadline, acceptedCount, createdAt, updatedAt) VALUES (?, 'Bench 10K', ?, 60, 'Yeouido', 'afterWork', 'average', 'run',"
            " ?, 'firstCome', ?, ?, ?, ?)", (members[0], later, GOING, later, GOING - 1, now, now))
        meetup = cursor.lastrowid
        db.executemany("INSERT INTO meetupApplications (meetupID, userID, status, queuedAt) VALUES (?, ?, 'accepted', ?)",
                       [(meetup, member, now) for member in members[1:GOING]])
    cookies = sign_in(DATABASE, members)
    print(f"{len(members)} members signed in; meetup {meetup} with {GOING} going")

    base_memory = server_memory_kib()
    keepalive = await idle_keepalive(STREAMS)
    keepalive_memory = server_memory_kib()
    for reader, writer in keepalive:
        writer.close()
    await asyncio.sleep(2)
    print(f"server memory: {base_memory / 1024:.0f} MiB at rest, {keepalive_memory / 1024:.0f} MiB with {STREAMS:,} idle "
          f"keep-alive connections ({(keepalive_memory - base_memory) * 1024 / STREAMS:,.0f} bytes each)")

    streams = []
    started = time.monotonic()
    for index, (cookie, _) in enumerate(cookies):
        for copy in range(PER_MEMBER):
            path = f"/events?meetup={meetup}" if copy == 0 and index < GOING else "/events"
            streams.append(Stream(path, cookie))
    tasks = await open_all(streams)
    opened = time.monotonic() - started
    await asyncio.sleep(3)
    stream_memory = server_memory_kib()
    print(f"{len(streams):,} event streams open in {opened:.1f} s; server memory {stream_memory / 1024:.0f} MiB "
          f"({(stream_memory - base_memory) * 1024 / len(streams):,.0f} bytes per stream)")
    cpu_before, wall_before = server_cpu_seconds(), time.monotonic()
    await asyncio.sleep(30)
    cpu = server_cpu_seconds() - cpu_before
    print(f"server CPU with {len(streams):,} idle streams (heartbeats every 15 s): "
          f"{100 * cpu / (time.monotonic() - wall_before):.2f}% of a core over 30 s")

    listeners = [stream for stream in streams if stream.path.startswith("/events?meetup")]
    host_cookie, host_csrf = cookies[0]
    latencies = await delivery(listeners, lambda text: post_form(f"/meetups/{meetup}/comments", host_cookie, {"_csrf": host_csrf, "body": text}))
    print(f"talk message to {len(listeners):,} listening browsers (20 messages, from the POST to each arrival): "
          f"p50 {percentile(latencies, 0.5):.1f} ms, p99 {percentile(latencies, 0.99):.1f} ms, max {max(latencies):.1f} ms")
    alive = sum(1 for task in tasks if not task.done())
    print(f"streams still open at the end: {alive:,} of {len(streams):,}")
    for task in tasks:
        task.cancel()


asyncio.run(main())
