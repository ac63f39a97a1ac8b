"""Talk at scale (script/bench --talk runs it).

usage: talk.py prepare SQLITE_FILE          before the server starts: the rooms below, written
                                            straight into a demo site's database; prints them as
                                            shell variables for script/bench
       talk.py stream BASE_URL SQLITE_FILE  with the server running: a crew room of 2,000
                                            members, each with the room open

1. Prepared: a crew whose room holds every member of the site (2,000); two group rooms of
   runner1 and runner2, one of 1,000,000 messages and one of 1,000, each read to the end; and three
   readers, with 500, 30 (a page of the inbox) and 5 direct conversations, each with one message. script/bench
   then times opening each room and paging back from its middle, and each reader's inbox, with
   wrk at one connection (service time, not queueing).
2. Streamed: each of the 2,000 members opens the crew room's event stream; one of them writes
   20 messages through the form, and the time from sending each to its arrival at every stream
   is measured (by one epoll loop on plain sockets, light enough that the times are the server's).
"""
import http.client
import resource
import select
import socket
import sqlite3
import sys
import time
import urllib.parse

from streams import percentile, sign_in

NOW = time.strftime("%Y-%m-%d %H:%M:%S.000", time.gmtime())
BIG, SMALL = 1_000_000, 1_000
WIDE, PAGE, NARROW = 500, 30, 5  # PAGE: as many as the inbox shows at once


def room(db, kind, created_by, direct_key=None, name=None):
    return db.execute("INSERT INTO rooms (kind, name, directKey, createdBy, createdAt, lastMessageAt) VALUES (?, ?, ?, ?, ?, ?)",
                      (kind, name, direct_key, created_by, NOW, NOW)).lastrowid


def fill(db, room_id, members, count):
    """`count` messages by `members` in turn, read to the end by all; returns the middle one's id."""
    db.executemany("INSERT INTO roomMembers (roomID, userID, lastMessageAt, joinedAt) VALUES (?, ?, ?, ?)",
                   [(room_id, member, NOW, NOW) for member in members])
    db.executemany("INSERT INTO messages (roomID, authorID, body, bodyHTML, createdAt) VALUES (?, ?, ?, ?, ?)",
                   ((room_id, members[n % len(members)], f"Message {n} about Saturday's run",
                     f"<p>Message {n} about Saturday's run</p>", NOW) for n in range(count)))
    first, last = db.execute("SELECT min(id), max(id) FROM messages WHERE roomID = ?", (room_id,)).fetchone()
    db.execute("UPDATE rooms SET lastMessageID = ? WHERE id = ?", (last, room_id))
    db.execute("UPDATE roomMembers SET lastReadID = ? WHERE roomID = ?", (last, room_id))
    return first + count // 2


def prepare(database):
    started = time.monotonic()
    with sqlite3.connect(database, timeout=30) as db:
        users = [row[0] for row in db.execute("SELECT id FROM users ORDER BY id")]
        runner1, runner2 = users[0], users[1]
        # Every member in the first crew: its room follows (the crew's triggers).
        crew = db.execute("SELECT id FROM crews ORDER BY id LIMIT 1").fetchone()[0]
        db.executemany("INSERT OR IGNORE INTO crewMembers (crewID, userID, role, joinedAt) VALUES (?, ?, 'member', ?)",
                       [(crew, user, NOW) for user in users])
        crew_room = db.execute("SELECT id FROM rooms WHERE kind = 'crew' AND crewID = ?", (crew,)).fetchone()[0]
        big = room(db, "group", runner1)
        big_middle = fill(db, big, [runner1, runner2], BIG)
        small = room(db, "group", runner1)
        small_middle = fill(db, small, [runner1, runner2], SMALL)
        # Two readers' inboxes: conversations with others, one message each.
        wide, page, narrow = users[2], users[3], users[4]
        others = users[10:10 + WIDE]
        for reader, count in ((wide, WIDE), (page, PAGE), (narrow, NARROW)):
            for other in others[:count]:
                key = f"{min(reader, other)}-{max(reader, other)}"
                direct = room(db, "direct", other, direct_key=key)
                fill(db, direct, [other, reader], 1)
    cookies = sign_in(database, [runner1, wide, page, narrow])
    print(f"echo 'prepared in {time.monotonic() - started:.0f} s: a crew room of {len(users):,}, rooms of {BIG:,} and {SMALL:,} messages,"
          f" inboxes of {WIDE}, {PAGE} and {NARROW}' >&2")
    print(f"crew_room={crew_room} big_room={big} big_middle={big_middle} small_room={small} small_middle={small_middle}")
    print(f"reader={cookies[0][0]} wide={cookies[1][0]} page={cookies[2][0]} narrow={cookies[3][0]}")


def stream(base, database):
    address = urllib.parse.urlsplit(base)
    host, port = address.hostname, address.port
    with sqlite3.connect(database, timeout=30) as db:
        crew_room = db.execute("SELECT id FROM rooms WHERE kind = 'crew' ORDER BY id LIMIT 1").fetchone()[0]
        members = [row[0] for row in db.execute("SELECT userID FROM roomMembers WHERE roomID = ? ORDER BY userID", (crew_room,))]
        # A member of two months, so that the caps on new accounts do not hold back the writer.
        db.execute("UPDATE users SET createdAt = '2026-01-01 00:00:00.000' WHERE id = ?", (members[0],))
    cookies = sign_in(database, members)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 3 * len(members) + 100)), hard))

    # One plain socket per member, read by one epoll loop that only looks for the message's
    # text in what arrives: a client as light as it can be, so that the times are the server's.
    started = time.monotonic()
    poller, sockets = select.epoll(), {}
    for cookie, _ in cookies:
        sock = socket.create_connection((host, port))
        sock.sendall(f"GET /events?room={crew_room} HTTP/1.1\r\nHost: {host}\r\nCookie: moim_session={cookie}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += sock.recv(4096)
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(head.split(b"\r\n")[0].decode())
        sock.setblocking(False)
        poller.register(sock.fileno(), select.EPOLLIN)
        sockets[sock.fileno()] = sock
    print(f"{len(sockets):,} members of the crew's room with it open ({time.monotonic() - started:.1f} s to open the streams)")

    def drain(seconds, marker=None, arrivals=None):
        until = time.monotonic() + seconds
        while time.monotonic() < until and (arrivals is None or len(arrivals) < len(sockets)):
            for fd, _ in poller.poll(0.005):
                try:
                    chunk = sockets[fd].recv(65536)
                except BlockingIOError:
                    continue
                if marker is not None and marker in chunk and fd not in arrivals:
                    arrivals[fd] = time.monotonic()

    drain(2)
    writer_cookie, writer_csrf = cookies[0]
    latencies, missing = [], 0
    for number in range(20):
        text = f"bench message {number:02d}"
        body = urllib.parse.urlencode({"_csrf": writer_csrf, "body": text})
        connection = http.client.HTTPConnection(host, port)
        arrivals = {}
        sent = time.monotonic()
        connection.request("POST", f"/talk/{crew_room}", body, {"Cookie": f"moim_session={writer_cookie}",
                                                                 "Content-Type": "application/x-www-form-urlencoded"})
        answer = connection.getresponse()
        answer.read()
        if answer.status != 303:
            raise RuntimeError(f"POST answered {answer.status}")
        drain(5, text.encode(), arrivals)
        latencies += [(at - sent) * 1000 for at in arrivals.values()]
        missing += len(sockets) - len(arrivals)
        drain(0.3)
    p99 = percentile(latencies, 0.99)
    print(f"a message in a crew room of {len(sockets):,} to every open stream (20 messages, from the POST to each arrival): "
          f"first {min(latencies):.1f} ms, p50 {percentile(latencies, 0.5):.1f} ms, p99 {p99:.1f} ms, max {max(latencies):.1f} ms"
          + (f"; {missing} never arrived" if missing else ""))
    print(f"goal: p99 under 100 ms: {'met' if p99 < 100 and not missing else 'NOT met'}")
    for sock in sockets.values():
        sock.close()


if sys.argv[1] == "prepare":
    prepare(sys.argv[2])
else:
    stream(sys.argv[2], sys.argv[3])
