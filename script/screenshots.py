"""Fills a fresh site with a crew's life and photographs every page type in headless Chromium.

Run by script/screenshots, which builds Moim, installs Chromium and Selenium and passes:
    screenshots.py MOIM_BINARY OUTPUT_DIRECTORY VENV

For every page, at 375x812 (a phone) and 1280x900, in English and in Korean, it saves a full-page
screenshot and reports what a person would notice: a page that scrolls sideways, a page without
exactly one <h1>, a status other than the expected one. It exits non-zero if any page fails.
"""

import base64
import collections
import datetime
import email
import email.policy
import glob
import hashlib
import hmac
import http.cookiejar
import json
import math
import os
import re
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

PORT = 18095
TILE_PORT = 18096
BASE = f"http://127.0.0.1:{PORT}"
PASSWORD = "demo password"
SIZES = {"phone": (375, 812), "desktop": (1280, 900)}


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def one_time_code(secret, at=None):
    """What an authenticator app holding `secret` (base32) shows now: RFC 6238, HMAC-SHA-1 of
    the 30-second step, 6 digits."""
    key = secret.replace(" ", "").upper()
    digest = hmac.new(base64.b32decode(key + "=" * (-len(key) % 8)), struct.pack(">Q", int((time.time() if at is None else at) // 30)),
                      hashlib.sha1).digest()
    offset = digest[-1] & 15
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


class Member:
    """One person's cookies, signing forms with the CSRF token of the page they came from."""

    def __init__(self, username):
        self.username = username
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)

    def request(self, path, data=None, headers=None):
        request = urllib.request.Request(BASE + path, data=data, headers=headers or {})
        try:
            with self.opener.open(request) as response:
                return response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read().decode(errors="replace")

    def get(self, path):
        return self.request(path)

    def token(self, page):
        status, _, body = self.get(page)
        match = re.search(r'name="_csrf" value="([^"]+)"', body)
        if not match:
            raise SystemExit(f"{self.username}: no form on {page} ({status})")
        return match.group(1)

    def post(self, path, fields, page=None, files=()):
        fields = [("_csrf", self.token(page or path))] + list(fields)
        if files:
            boundary = "moimscreenshots"
            body = b""
            for name, value in fields:
                body += f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
            for name, filename, content_type, data in files:
                body += (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                         f"Content-Type: {content_type}\r\n\r\n").encode() + data + b"\r\n"
            body += f"--{boundary}--\r\n".encode()
            headers = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        else:
            body = urllib.parse.urlencode(fields).encode()
            headers = {"Content-Type": "application/x-www-form-urlencoded"}
        status, response_headers, text = self.request(path, body, headers)
        if status not in (200, 303):
            errors = re.findall(r'class="(?:field-error|form-error)"[^>]*>([^<]*)', text)
            raise SystemExit(f"{self.username}: POST {path} answered {status}: {errors or text[:500]}")
        return response_headers.get("Location", "")

    def log_in(self):
        self.post("/login", [("login", self.username), ("password", PASSWORD)])
        return self

    def turn_on_two_factor(self):
        """Sets up one-time codes as a member with an authenticator app does (the key typed off
        the page), which also counts for this session: staff pages open."""
        self.post("/settings/two-factor/setup", [], page="/settings/two-factor")
        _, _, page = self.get("/settings/two-factor")
        secret = re.search(r'<code class="secret">([A-Z2-7 ]+)</code>', page).group(1)
        self.post("/settings/two-factor", [("code", one_time_code(secret))], page="/settings/two-factor")
        return self

    @property
    def session(self):
        return next(cookie.value for cookie in self.jar if cookie.name == "moim_session")


def demo_site(binary, prefix, users):
    """A fresh demo site of `users` members and no posts, its members two months old (past the
    caps on new accounts); returns its data folder."""
    data = tempfile.mkdtemp(prefix=prefix)
    subprocess.run([binary, "demo", "--data", data, "--users", str(users), "--posts", "0", "--follows", "1", "--comments", "0", "--meetups", "0"],
                   check=True, stdout=subprocess.DEVNULL)
    database = sqlite3.connect(os.path.join(data, "moim.sqlite"))
    database.execute("UPDATE users SET createdAt = strftime('%Y-%m-%d %H:%M:%f', 'now', '-60 days')")
    database.commit()
    database.close()
    return data


def chromium(width=1280, javascript=True):
    """A headless Chromium, with JavaScript or without."""
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", f"--window-size={width},900"]:
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def host_meetup(member, capacity):
    """A run three days from now, hosted by `member` through the form; its page's path."""
    start = time.strftime("%Y-%m-%dT%H:%M", time.localtime(time.time() + 3 * 86400))
    return member.post("/meetups", [
        ("title", "Dawn 10K, Yeouido"), ("description", "Steady."), ("starts_at", start), ("duration", "60"),
        ("place_name", "Yeouido Park"), ("address", "Seoul"), ("latitude", ""), ("longitude", ""), ("place_note", ""),
        ("region", "seoul"), ("time_slot", "weekend"), ("distance", "10"), ("pace", "average"), ("style", "run"),
        ("capacity", str(capacity)), ("signup_mode", "firstCome"), ("deadline", ""), ("gender_rule", "any")], page="/meetups/new")


def sign_in(driver, username, base=BASE):
    """Signs `username` in through the login form at `base`, and returns once the browser has left it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.wait import WebDriverWait
    driver.get(base + "/login")
    driver.find_element(By.ID, "login").send_keys(username)
    driver.find_element(By.ID, "password").send_keys(PASSWORD)
    driver.find_element(By.CSS_SELECTOR, "form[action='/login'] button[type=submit]").click()
    WebDriverWait(driver, 10).until(lambda d: not d.current_url.startswith(base + "/login"))


class Checks:
    """What a browser walk-through found: `check(condition, what)` prints ok or FAIL; `finish()` ends the run."""

    def __init__(self):
        self.failures = []

    def __call__(self, condition, what):
        print(("ok    " if condition else "FAIL  ") + what)
        if not condition:
            self.failures.append(what)

    def finish(self):
        print("\n".join(["", f"{len(self.failures)} checks failed"] if self.failures else ["", "all checks passed"]))
        sys.exit(1 if self.failures else 0)


def wait_until_serving():
    """Returns once the server at BASE answers its health check (or after ten seconds)."""
    for _ in range(100):
        try:
            urllib.request.urlopen(BASE + "/healthz")
            return
        except OSError:
            time.sleep(0.1)


def png(width, height, colour):
    """A plain PNG with a diagonal band, so photos look like photos, not blank boxes."""
    rows = b""
    for y in range(height):
        row = bytearray()
        for x in range(width):
            band = abs((x + y) % 120 - 60) / 60
            row += bytes(int(c * (0.7 + 0.3 * band)) for c in colour)
        rows += b"\x00" + bytes(row)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def gpx(start):
    """A 6 km loop along the Han river with a small hill, one point every 10 s."""
    points = []
    for step in range(181):
        angle = step / 180 * 2 * math.pi
        lat = 37.528 + 0.012 * math.sin(angle)
        lon = 126.933 + 0.018 * (1 - math.cos(angle))
        ele = 12 + 9 * max(0.0, math.sin(angle * 2))
        when = (start + datetime.timedelta(seconds=10 * step)).strftime("%Y-%m-%dT%H:%M:%SZ")
        points.append(f'<trkpt lat="{lat:.6f}" lon="{lon:.6f}"><ele>{ele:.1f}</ele><time>{when}</time></trkpt>')
    return ('<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="moim"><trk><name>Han river loop</name><trkseg>'
            + "".join(points) + "</trkseg></trk></gpx>").encode()


def local(moment):
    return moment.strftime("%Y-%m-%dT%H:%M")


def seed(data):
    """Members from `moim demo`, then a crew's life through the site's own forms."""
    db = sqlite3.connect(os.path.join(data, "moim.sqlite"))
    names = ["김민지", "Jun Park", "이하나", "Sora Choi", "박도윤", "Mina Lee", "정우진", "Alex Kim", "최서연", "Daniel Han", "윤지호", "Grace Oh"]
    for number, name in enumerate(names, start=1):
        db.execute("UPDATE users SET displayName = ?, createdAt = strftime('%Y-%m-%d %H:%M:%f', 'now', '-60 days'),"
                   " gender = ?, birthYear = ?, job = 'office' WHERE username = ?",
                   (name, "female" if number % 2 else "male", 1985 + number, f"runner{number}"))
    db.execute("UPDATE users SET role = 'admin' WHERE username = 'runner1'")
    # runner1 proved where she works (a code to her work address, typed back a month ago).
    db.execute("UPDATE users SET workplaceDomain = 'hangang-bank.co.kr', workplaceVerifiedAt = strftime('%Y-%m-%d %H:%M:%f', 'now', '-30 days')"
               " WHERE username = 'runner1'")
    db.commit()

    people = [Member(f"runner{number}").log_in() for number in range(1, 13)]
    lead, second = people[0], people[1]
    now = datetime.datetime.now()

    crew = lead.post("/crews", [
        ("name", "Han River Dawn Runners"), ("slug", "dawn"), ("sport", "running"), ("region", "seoul"),
        ("description", "We run **every Saturday** at 6:00 from Yeouido. All paces welcome; we regroup every 2 km.\n\n"
                        "- 5K easy group\n- 10K steady group\n\n#한강러닝 #morningrun"),
        ("meeting_time", "Sat 6:00"), ("meeting_place", "Yeouido Hangang Park, gate 2"), ("fee_amount", "10000"),
        ("fee_currency", "KRW"), ("fee_period", "month"), ("join_policy", "open"), ("member_cap", "30"),
    ], page="/crews/new", files=[("cover", "cover.png", "image/png", png(480, 200, (255, 140, 90)))])
    for member in people[1:11]:
        member.post(crew + "/join", [], page=crew)
    lead.post(crew + "/members/runner2/promote", [], page=crew + "/members")
    today = now.strftime("%Y-%m-%d")
    for number in range(2, 9):
        lead.post(crew + "/ledger", [("kind", "dues"), ("member", f"runner{number}"), ("amount", "10000"), ("date", today), ("note", "")],
                  page=crew + "/ledger")
    lead.post(crew + "/ledger", [("kind", "expense"), ("member", ""), ("amount", "32500"), ("date", today),
                                 ("note", "Water and bananas for the 10K time trial")], page=crew + "/ledger")
    lead.post(crew + "/ledger", [("kind", "income"), ("member", ""), ("amount", "50000"), ("date", today),
                                 ("note", "Sponsorship from the corner café")], page=crew + "/ledger")
    people[3].post(crew + "/comments", [("body", "First time joining on Saturday — which gate is it exactly?")], page=crew)
    lead.post(crew + "/comments", [("body", "Gate 2, next to the convenience store. Look for the orange flag!")], page=crew)

    start = now.replace(hour=6, minute=0, second=0, microsecond=0) + datetime.timedelta(days=4)
    meetup_fields = {
        "title": "Saturday 10K steady, Yeouido loop", "description": "Steady 5:30/km, we regroup at every bridge. Bring water.",
        "starts_at": local(start), "duration": "90", "place_name": "Yeouido Hangang Park",
        "address": "330 Yeouidong-ro, Yeongdeungpo-gu, Seoul", "latitude": "37.5283", "longitude": "126.9327",
        "place_note": "Gate 2, orange flag", "region": "seoul", "time_slot": "weekend", "distance": "10", "pace": "average",
        "style": "run", "capacity": "4", "signup_mode": "firstCome", "deadline": "", "gender_rule": "any", "crew": "dawn",
    }
    meetup = lead.post("/meetups", list(meetup_fields.items()), page="/meetups/new")
    for member in people[1:8]:
        member.post(meetup + "/apply", [], page=meetup)
    people[2].post(meetup + "/comments", [("body", "Is there a bag drop near gate 2?")], page=meetup)
    lead.post(meetup + "/comments", [("body", "Yes, the lockers by the convenience store take ₩1,000 coins.")], page=meetup)
    approval = dict(meetup_fields, title="Thursday track intervals (approval)", signup_mode="approval", capacity="8",
                    starts_at=local(start + datetime.timedelta(days=2, hours=13)), time_slot="afterWork", crew="",
                    gender_rule="female", min_age="20", max_age="45",
                    place_name="Yeouido track", latitude="37.5245", longitude="126.9410")
    people[2].post("/meetups", list(approval.items()), page="/meetups/new")
    lottery = dict(meetup_fields, title="Sunrise half marathon pacers (lottery)", signup_mode="lottery", capacity="3", crew="",
                   place_name="Banpo bridge", latitude="37.5120", longitude="126.9960",
                   starts_at=local(start + datetime.timedelta(days=5)), deadline=local(start + datetime.timedelta(days=3)))
    draw = people[4].post("/meetups", list(lottery.items()), page="/meetups/new")
    for member in people[5:10]:
        member.post(draw + "/apply", [], page=draw)
    soon = dict(meetup_fields, title="Tonight's easy 5K (check-in open)", crew="", capacity="10",
                place_name="Saetgang park", latitude="37.5170", longitude="126.9290",
                starts_at=local(now + datetime.timedelta(minutes=20)), deadline=local(now + datetime.timedelta(minutes=10)))
    checkin = lead.post("/meetups", list(soon.items()), page="/meetups/new")
    grouped = dict(meetup_fields, title="Sunday long run, three pace groups", crew="", place_name="Mapo bridge",
                   latitude="37.5380", longitude="126.9440", groups="5:30 /km, 3, runner2\n6:00 /km, 4\n6:30 /km, 4, runner4",
                   starts_at=local(start + datetime.timedelta(days=1, hours=1)))
    groups_url = lead.post("/meetups", list(grouped.items()), page="/meetups/new")
    for member in people[1:4]:
        member.post(checkin + "/apply", [], page=checkin)
    for index, member in enumerate(people[1:9]):
        _, _, page = member.get(groups_url)
        ids = re.findall(r'<option value="(\d+)">', page.split('name="group"')[1].split("</select>")[0])
        member.post(groups_url + "/apply", [("group", ids[index % len(ids)])], page=groups_url)

    office = dict(meetup_fields, title="Lunch 5K for office workers, Yeouido", crew="", capacity="12", workplace_only="on",
                  time_slot="afterWork", place_name="IFC mall, north gate", latitude="37.5251", longitude="126.9255",
                  starts_at=local(start.replace(hour=12) + datetime.timedelta(days=1)))
    lead.post("/meetups", list(office.items()), page="/meetups/new")
    # She renews her workplace: her settings show where to type the code mailed to her.
    lead.post("/settings/workplace", [("work_email", "minji.kim@hangang-bank.co.kr")], page="/settings")

    run_start = now - datetime.timedelta(days=1, hours=3)
    record = lead.post("/records", [("visibility", "public"), ("note", "Easy loop, legs felt **fresh** after the rest day.")],
                       page="/records/new", files=[("gpx", "loop.gpx", "application/gpx+xml", gpx(run_start))])
    for days, km, minutes in [(3, "5.2", "28:40"), (6, "12.0", "1:08:10"), (9, "8.4", "46:30")]:
        lead.post("/records", [("visibility", "public"), ("note", ""), ("distance", km), ("duration", minutes),
                               ("started_at", local(now - datetime.timedelta(days=days)))], page="/records/new")

    post = lead.post("/posts", [("body", "Sunrise 10K with the crew 🌅 — thanks @runner2 for pacing! #한강러닝 #morningrun")],
                     page="/posts/new", files=[("photos", f"{n}.png", "image/png", png(360, 270, c))
                                               for n, c in enumerate([(80, 140, 220), (255, 170, 90), (90, 190, 130)])])
    comment_ids = []
    for number, text in [(2, "Great pace today, see you Saturday!"), (3, "좋았어요! 다음 주에도 같이 달려요."), (4, "Which shoes were you wearing?")]:
        people[number - 1].post(post + "/comments", [("body", text)], page=post)
    _, _, page = lead.get(post)
    comment_ids = re.findall(r'id="comment-(\d+)"', page)
    if comment_ids:
        lead.post(post + "/comments", [("body", "Old Pegasus, nothing fancy 😄"), ("parent", comment_ids[-1])], page=post)
    people[5].post("/posts", [("body", "오늘 한강 러닝 코스 정말 좋았어요. 다음에는 반포대교까지 가 봐요! #한강러닝")], page="/posts/new")
    spam = people[11].post("/posts", [("body", "Buy cheap shoes now!!! best price")], page="/posts/new")
    spam_id = spam.rsplit("/", 1)[-1]
    for member in people[2:4]:
        member.post("/reports", [("target_type", "post"), ("target_id", spam_id), ("reason", "spam"), ("note", "advertising"),
                                 ("return_to", "/")], page=spam)
    for member in people[2:8]:
        member.post("/u/runner1/follow", [], page="/u/runner1")

    retro = lead.post(crew + "/retros", [("name", "November"), ("starts_at", local(now + datetime.timedelta(days=1)))], page=crew + "/retros")
    feedback = [(2, "runner1", "continue", "Pacer", "You kept the group together on every hill."),
                (3, "runner1", "continue", "Cheerful", "Your high fives at the bridge kept me going."),
                (4, "runner1", "stop", "Fast start", "The first kilometre was 4:50, the plan said 5:30."),
                (1, "runner2", "continue", "Reliable", "Always first at the gate with the flag.")]
    for number, recipient, kind, keyword, text in feedback:
        people[number - 1].post(retro + "/feedback", [("recipient", recipient), ("kind", kind), ("keyword", keyword),
                                                      ("description", text), ("to_start", "")], page=retro)
    db.execute("UPDATE retros SET startsAt = strftime('%Y-%m-%d %H:%M:%f', 'now', '-1 hours')")
    db.commit()

    # Talk: a notice, the crew's room, a topic room and two conversations.
    lead.post(crew + "/notices", [("body", "Saturday's run starts at **6:30** this week: the park opens late.")], page=crew)
    room = "/talk/%d" % db.execute("SELECT rooms.id FROM rooms JOIN crews ON crews.id = rooms.crewID WHERE crews.slug = 'dawn' AND kind = 'crew'").fetchone()[0]
    lines = [(1, "Who is in for Saturday? Reply here so I can count bananas 🍌"), (2, "Me! Bringing my sister too."),
             (4, "In, but I'll be at 6:00 /km"), (3, "토요일에 봐요! 물 챙겨 갈게요."), (1, "Great, 6 so far. Gate 2 at 6:30.")]
    for number, text in lines:
        people[number - 1].post(room, [("body", text)], page=room)
    topic = lead.post(crew + "/rooms", [("name", "장비 나눔")], page=crew)
    people[4].post(topic, [("body", "Selling my old Pegasus 40, size 270, worn twice. ₩40,000?")], page=topic)
    direct = people[1].post("/u/runner1/talk", [], page="/u/runner1").split("#")[0]
    people[1].post(direct, [("body", "Can you pace the 10K group on Saturday? I can take the 5K.")], page=direct)
    lead.post(direct, [("body", "Sure — I'll bring the orange flag.")], page=direct)
    stranger = people[11].post("/u/runner1/talk", [], page="/u/runner1").split("#")[0]
    people[11].post(stranger, [("body", "Hi! Is the crew open to beginners?")], page=stranger)
    for number, text in [(2, "Running late, 5 minutes!"), (3, "See you at gate 2")]:
        people[number - 1].post(room, [("body", text)], page=room)
    # A photo from the finish, a place to meet, and a message someone reported to the crew's staff.
    people[3].post(room, [("body", "Last week's finish 🏁")], page=room,
                   files=[("photos", "finish.png", "image/png", png(360, 270, (90, 160, 230))),
                          ("photos", "group.png", "image/png", png(360, 270, (240, 170, 60)))])
    place = people[2].post(room + "/place", [("send", "1"), ("place_name", "Yeouido Park gate 2"), ("latitude", "37.5283"),
                                             ("longitude", "126.9327"), ("body", "Here, by the bikes")], page=room + "/place")
    people[5].post(room, [("body", "Cheap shoes at spam.example, DM me")], page=room)
    spam = db.execute("SELECT max(id) FROM messages").fetchone()[0]
    people[1].post("/reports", [("target_type", "message"), ("target_id", str(spam)), ("reason", "spam"), ("note", "advertising"),
                                ("return_to", room)], page="/reports/new?target_type=message&target_id=%d" % spam)
    db.close()
    return {"crew": crew, "meetup": meetup, "record": record, "post": post, "retro": retro, "lottery": draw, "checkin": checkin, "groups": groups_url,
            "room": room, "topic": topic, "direct": direct, "place": "/talk/messages/%s/place" % place.split("#message-")[1]}


def pages(seeded):
    crew, meetup = seeded["crew"], seeded["meetup"]
    return [
        ("home", "/"), ("explore", "/explore"), ("post", seeded["post"]), ("post-new", "/posts/new"),
        ("search", "/search?q=%ED%95%9C%EA%B0%95"), ("tag", "/tags/morningrun"), ("bookmarks", "/bookmarks"),
        ("notifications", "/notifications"), ("crews", "/crews"), ("crew", crew), ("crew-members", crew + "/members"),
        ("crew-posts", crew + "/posts"), ("crew-meetups", crew + "/meetups"), ("crew-ledger", crew + "/ledger"),
        ("crew-retros", crew + "/retros"), ("crew-retro", seeded["retro"]), ("crew-edit", crew + "/edit"), ("crew-new", "/crews/new"),
        ("meetups", "/meetups"), ("meetups-near", "/meetups?near=37.528300,126.932700&radius=3"),
        ("meetups-map", "/meetups?near=37.528300,126.932700&radius=3&view=map"), ("near-pick", "/near?to=meetups"),
        ("crews-near", "/crews?near=37.528300,126.932700&radius=3"), ("meetup", meetup), ("meetup-lottery", seeded["lottery"]), ("meetup-checkin", seeded["checkin"]), ("meetup-groups", seeded["groups"]), ("meetup-edit", meetup + "/edit"), ("meetup-new", "/meetups/new"),
        ("records", "/records"), ("record", seeded["record"]), ("record-new", "/records/new"),
        ("profile", "/u/runner1"), ("profile-records", "/u/runner1/records"), ("feedback", "/u/runner1/feedback"),
        ("followers", "/u/runner1/followers"), ("settings", "/settings"), ("report", "/reports/new?type=post&id=1"),
        ("admin", "/admin"), ("admin-reports", "/admin/reports"), ("admin-users", "/admin/users"), ("admin-user", "/admin/users/runner12"),
        ("admin-log", "/admin/log"), ("moderation", "/moderation"), ("missing", "/no-such-page"),
        ("talk", "/talk"), ("talk-requests", "/talk?requests=1"), ("talk-room", seeded["room"]), ("talk-topic", seeded["topic"]),
        ("talk-direct", seeded["direct"]), ("talk-new", "/talk/new"), ("talk-place", seeded["room"] + "/place"),
        ("talk-place-map", seeded["place"]), ("crew-reports", crew + "/reports"), ("two-factor", "/settings/two-factor"),
        ("two-factor-check", "/two-factor?return_to=/admin"), ("passkeys", "/settings/passkeys"),
        ("browsers", "/settings/browsers"), ("data-export", "/settings/export"), ("delete-account", "/settings/delete"),
        ("admin-documents", "/admin/documents/terms"), ("privacy", "/privacy"),
    ]


VISITOR_PAGES = [("visitor-home", "/"), ("login", "/login"), ("signup", "/signup"), ("visitor-crew", "/crews/dawn"),
                 ("forgot-password", "/password/forgot"), ("terms", "/terms"), ("refunds", "/refunds?version=1")]


def start_mail_sink(directory):
    """The tests' SMTP server (aiosmtpd), so that the site sends real mail to photograph."""
    sink = subprocess.Popen(["/usr/bin/python3", "Tests/Doubles/smtp_server.py", "--dir", directory],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return sink, int(sink.stdout.readline().split()[1])


def collect_mail(binary, data, mail_directory, output):
    """Has the site send each kind of mail, saves their HTML parts as mail-KIND.html, and returns the
    visitor pages their links open (a reset form, an unsubscribe page)."""
    db = sqlite3.connect(os.path.join(data, "moim.sqlite"))
    # runner1 proved their address a week ago and has unread news: a digest is due.
    db.execute("UPDATE mailSettings SET verifiedEmail = (SELECT email FROM users WHERE users.id = userID),"
               " lastDigestAt = strftime('%Y-%m-%d %H:%M:%f', 'now', '-8 days') WHERE userID = 1")
    db.execute("UPDATE notifications SET readAt = NULL, createdAt = strftime('%Y-%m-%d %H:%M:%f', 'now', '-1 days') WHERE userID = 1")
    db.commit()
    Member("runner2").log_in().post("/settings/email/verify", [], page="/settings")
    Member("visitor").post("/password/forgot", [("login", "runner3")])
    # The workplace code went out while seeding.
    names = {"Reset": "mail-reset", "Confirm": "mail-verify", "unread": "mail-digest", "workplace code": "mail-workplace"}
    os.makedirs(os.path.join(output, "html"), exist_ok=True)
    saved = []
    for _ in range(200):
        for path in sorted(glob.glob(os.path.join(mail_directory, "*.eml"))):
            with open(path, "rb") as file:
                message = email.message_from_binary_file(file, policy=email.policy.default)
            name = next((value for key, value in names.items() if key in message["Subject"]), None)
            if name and name not in saved:
                html = message.get_body(("html",)).get_content()
                with open(os.path.join(output, "html", name + ".html"), "w") as file:
                    file.write(html)
                saved.append(name)
        if len(saved) == len(names):
            break
        time.sleep(0.1)
    missing = set(names.values()) - set(saved)
    if missing:
        raise SystemExit(f"no mail arrived for {', '.join(sorted(missing))}")
    token = db.execute("SELECT unsubscribeToken FROM mailSettings WHERE userID = 1").fetchone()[0]
    db.close()
    link = subprocess.run([binary, "admin", "reset-link", "runner4", "--data", data, "--base-url", BASE],
                          check=True, capture_output=True, text=True).stdout.strip()
    return saved, [("password-reset", link[len(BASE):]), ("unsubscribe", f"/unsubscribe/{token}?list=digest")]


def save_html(member, language, output, named_paths):
    """The HTML as the server sent it, for an HTML validator (html/NAME-LANGUAGE.html)."""
    os.makedirs(os.path.join(output, "html"), exist_ok=True)
    member.jar.set_cookie(http.cookiejar.Cookie(0, "moim_lang", language, None, False, "127.0.0.1", False, False, "/", True,
                                                False, None, True, None, None, {}))
    for name, path in named_paths:
        _, _, body = member.get(path)
        with open(os.path.join(output, "html", f"{name}-{language}.html"), "w") as file:
            file.write(body)


# axe-core, pinned: the copy inside the axe-playwright-python wheel (script/screenshots installs it).
AXE_VERSION = "4.12.1"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
AXE_SOURCE = None
# rule -> [page views that break it, elements]
AXE_COUNTS = collections.defaultdict(lambda: [0, 0])


def load_axe(venv):
    global AXE_SOURCE
    found = glob.glob(os.path.join(venv, "lib", "python3*", "site-packages", "axe_playwright_python", "axe.min.js"))
    with open(found[0]) as file:
        AXE_SOURCE = file.read()
    if f"axe v{AXE_VERSION}" not in AXE_SOURCE[:100]:
        sys.exit(f"expected axe-core {AXE_VERSION} in {found[0]}")


def accessibility(driver):
    """axe-core's WCAG 2.0-2.2 A and AA violations on the page as shown: ["rule (N): target", …]."""
    # Run as the driver's own script (CDP), which the pages' CSP does not govern.
    driver.execute_script(AXE_SOURCE + "; window.axe = axe;")
    found = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        window.axe.run(document, {runOnly: {type: 'tag', values: arguments[0]}, resultTypes: ['violations']})
          .then(r => done(r.violations.map(v => [v.id, v.nodes.length, v.nodes.slice(0, 2).map(n => n.target.join(' ')).join(', ')])))
          .catch(e => done([['axe-error', 1, String(e)]]));""", AXE_TAGS)
    for rule, nodes, _ in found:
        AXE_COUNTS[rule][0] += 1
        AXE_COUNTS[rule][1] += nodes
    return [f"axe {rule} ({nodes}): {targets}" for rule, nodes, targets in found]


# Roles a person acts on: each needs a name in Chromium's accessibility tree.
INTERACTIVE_ROLES = {"button", "link", "textbox", "searchbox", "combobox", "checkbox", "radio", "spinbutton", "slider",
                     "menuitem", "tab", "switch", "listbox", "DisclosureTriangle"}


def nameless_controls(driver):
    """Controls without an accessible name in Chromium's own tree (CDP Accessibility.getFullAXTree)."""
    nodes = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
    found = [node["role"]["value"] for node in nodes if not node.get("ignored") and node.get("role", {}).get("value") in INTERACTIVE_ROLES
             and not (node.get("name", {}).get("value") or "").strip()]
    return [f"{len(found)} controls without an accessible name ({', '.join(sorted(set(found)))})"] if found else []


def sideways(driver):
    """What sticks out past the right edge (up to three elements), or [] when nothing does."""
    if driver.execute_script("return document.documentElement.scrollWidth <= document.documentElement.clientWidth"):
        return []
    return driver.execute_script("""
        const limit = document.documentElement.clientWidth;
        return [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > limit + 1
            && !e.closest('.table-wrap, .sections, pre, svg')).slice(0, 3)
            .map(e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '')
                 + ' ' + Math.round(e.getBoundingClientRect().right));""") or ["the page"]


def reflow(driver):
    """WCAG's reflow (1.4.10: 320 px wide) and text resize (1.4.4: text at 200% in a desktop
    window): nothing scrolls sideways."""
    size = driver.get_window_size()
    problems = []
    driver.set_window_size(320, size["height"])
    if found := sideways(driver):
        problems.append(f"scrolls sideways at 320 px: {', '.join(found)}")
    driver.set_window_size(SIZES["desktop"][0], size["height"])
    # Text size through the CSSOM (which the pages' CSP allows), as a browser's text zoom would.
    driver.execute_script("document.documentElement.style.fontSize = '200%'")
    if found := sideways(driver):
        problems.append(f"scrolls sideways with text at 200%: {', '.join(found)}")
    driver.execute_script("document.documentElement.style.fontSize = ''")
    driver.set_window_size(size["width"], size["height"])
    return problems


def shoot(driver, output, name, path, mail=False, text_checks=False):
    """A page of the site (a path), or with `mail` an email's HTML (a file:// address; no <h1>)."""
    driver.get(path if mail else BASE + path)
    wide = sideways(driver)
    h1s = driver.execute_script("return document.querySelectorAll('h1').length")
    height = driver.execute_script("return document.documentElement.scrollHeight")
    size = driver.get_window_size()
    driver.set_window_size(size["width"], min(height + 140, 6000))
    # Map tiles load lazily once in view, after the page's load event: wait for the shown map's.
    for _ in range(100):
        if driver.execute_script("""return [...document.querySelectorAll('img.map-tile')]
                .filter(i => getComputedStyle(i.closest('svg')).display !== 'none').every(i => i.complete)"""):
            break
        time.sleep(0.1)
    driver.save_screenshot(os.path.join(output, name + ".png"))
    driver.set_window_size(size["width"], size["height"])
    problems = accessibility(driver) + nameless_controls(driver) + (reflow(driver) if text_checks else [])
    if wide:
        problems.append(f"scrolls sideways: {', '.join(wide)}")
    if h1s != 1 and not mail:
        problems.append(f"{h1s} <h1>")
    return problems


def main():
    binary, output, venv = sys.argv[1], sys.argv[2], sys.argv[3]
    load_axe(venv)
    os.makedirs(output, exist_ok=True)
    data = tempfile.mkdtemp(prefix="moim-screenshots-")
    subprocess.run([binary, "demo", "--data", data, "--users", "12", "--posts", "40", "--follows", "6", "--comments", "0", "--meetups", "0"],
                   check=True, stdout=subprocess.DEVNULL)
    mail_directory = tempfile.mkdtemp(prefix="moim-screenshots-mail-")
    sink, sink_port = start_mail_sink(mail_directory)
    # Maps on tiles that say where they are (Tests/Doubles/tile_server.py), fetched and cached by the site.
    tiles = subprocess.Popen([sys.executable, "Tests/Doubles/tile_server.py", str(TILE_PORT)])
    # A sign-in provider on loopback, so the login page and settings show theirs.
    provider_dir = tempfile.mkdtemp(prefix="moim-screenshots-oidc-")
    issuer = subprocess.run(["Tests/Doubles/oidc-provider", "start", provider_dir], check=True, capture_output=True, text=True).stdout.strip()
    server = subprocess.Popen([binary, "serve", "--no-supervise", "--port", str(PORT), "--data", data, "--quiet",
                               "--smtp-url", f"smtp://127.0.0.1:{sink_port}", "--base-url", BASE,
                               "--tile-url", f"http://127.0.0.1:{TILE_PORT}/{{z}}/{{x}}/{{y}}.png", "--tile-attribution", "© Test tiles",
                               # Python draws each tile: give it time on a busy machine (a slow tile is background).
                               "--tile-timeout", "10",
                               "--oidc-issuer", issuer, "--oidc-client-id", "moim", "--oidc-client-secret", "screenshots",
                               "--oidc-name", "Hangang Runners SSO"])
    try:
        wait_until_serving()
        seeded = seed(data)
        mails, mail_pages = collect_mail(binary, data, mail_directory, output)
        options = Options()
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1"]:
            options.add_argument(argument)
        options.binary_location = "/usr/bin/chromium"
        driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
        driver.set_script_timeout(120)
        failures = []
        try:
            admin = Member("runner1").log_in().turn_on_two_factor()
            for language in ["en", "ko"]:
                for size_name, (width, height) in SIZES.items():
                    driver.set_window_size(width, height)
                    driver.get(BASE + "/healthz")
                    driver.delete_all_cookies()
                    driver.add_cookie({"name": "moim_lang", "value": language, "path": "/"})
                    # Mail is in the member's own language, whatever the browser's.
                    for name in mails if language == "en" else []:
                        for problem in shoot(driver, output, f"{name}-{size_name}",
                                             "file://" + os.path.abspath(os.path.join(output, "html", name + ".html")), mail=True):
                            failures.append(f"{name} {size_name}: {problem}")
                    for name, path in VISITOR_PAGES + mail_pages:
                        text_checks = size_name == "phone" and language == "en"
                        for problem in shoot(driver, output, f"{name}-{language}-{size_name}", path, text_checks=text_checks):
                            failures.append(f"{name} {language} {size_name}: {problem}")
                    driver.add_cookie({"name": "moim_session", "value": admin.session, "path": "/"})
                    if size_name == "desktop":
                        save_html(admin, language, output, pages(seeded))
                    for name, path in pages(seeded):
                        text_checks = size_name == "phone" and language == "en"
                        for problem in shoot(driver, output, f"{name}-{language}-{size_name}", path, text_checks=text_checks):
                            failures.append(f"{name} {language} {size_name}: {problem}")
        finally:
            driver.quit()
        print("\n".join(failures) if failures else "every page fits, has one <h1> and no axe-core violation")
        print(f"axe-core {AXE_VERSION} ({', '.join(AXE_TAGS)}): "
              + ("no violations" if not AXE_COUNTS else "; ".join(f"{rule}: {views} page views, {nodes} elements"
                                                            for rule, (views, nodes) in sorted(AXE_COUNTS.items()))))
        print(f"screenshots in {output}")
        sys.exit(1 if failures else 0)
    finally:
        server.terminate()
        server.wait()
        tiles.terminate()
        tiles.wait()
        subprocess.run(["Tests/Doubles/oidc-provider", "stop", provider_dir])
        sink.stdin.close()
        sink.wait()


if __name__ == "__main__":
    main()
