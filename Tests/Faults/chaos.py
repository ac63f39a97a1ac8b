"""The fault campaign Tests/Faults/chaos runs: the whole site on one machine, for real, and faults
struck round after round while members write.

    chaos.py MOIM_BINARY WORK_DIR ROUNDS

The site: a PostgreSQL primary and its synchronous standby (Debian's PostgreSQL, pg_basebackup
-R; the standby is the read replica too), two `moim serve` behind Debian's nginx (the very
deploy/nginx/moim.conf), moto's S3 server for images, an aiosmtpd sink for mail. Four members
post (every tenth with a photo), open their post at once (their own write must show), comment
on it and like it; one more member changes their address each round (two mails).

Each round: the mail server refuses everything for a minute, and meanwhile one Moim server is
killed with SIGKILL (and started again 2 s later, as systemd would); the primary's postmaster is
killed with SIGKILL and the standby promoted a second later (the old primary's machine then
comes back as the new standby); the S3 server stops for 20 s (SIGSTOP: it keeps its objects);
the replica's replay is paused for 7 s, past the 5 s lag bound.

After each round every acknowledged post, comment and like is in the database exactly once,
every acknowledged photo is served, and no answer was a 500. At the end every mail queued went
out exactly once. Prints a line per round and the table for the README; exits 1 on any loss."""

import collections
import json
import os
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.request
import uuid

from site_member import Member

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = sorted((os.path.join("/usr/lib/postgresql", v, "bin") for v in os.listdir("/usr/lib/postgresql")),
             key=lambda p: [int(x) for x in re.findall(r"\d+", p)])[-1]
AS_POSTGRES = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
PHOTO = open(os.path.join(ROOT, "Tests/WebTests/Fixtures/gps.jpg"), "rb").read()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(command, **kwargs):
    return subprocess.run(command, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs).stdout


def log(text):
    print(f"{time.strftime('%H:%M:%S')} {text}", flush=True)


# PostgreSQL: two slots on fixed ports, each the primary or the standby in turn.

class Slot:
    def __init__(self, work, name):
        self.dir = os.path.join(work, name)
        os.makedirs(self.dir, exist_ok=True)
        os.chmod(self.dir, 0o755)
        if os.getuid() == 0:
            run(["chown", "postgres", self.dir])
        self.port = None

    @property
    def url(self):
        return f"postgres://moim@127.0.0.1:{self.port}/postgres"

    def psql(self, *statements):
        command = ["psql", "-qtAX", self.url + "?connect_timeout=3"]
        for statement in statements:
            command += ["-c", statement]
        return run(command).strip()

    def postmaster(self):
        with open(os.path.join(self.dir, "cluster", "postmaster.pid")) as file:
            return int(file.readline())

    def start_primary(self):
        run([os.path.join(ROOT, "script/postgres"), "start", self.dir])
        self.port = int(open(os.path.join(self.dir, "port")).read())

    def start_standby_of(self, primary):
        """A fresh synchronous standby of `primary` on this slot's port."""
        run(["rm", "-rf", os.path.join(self.dir, "cluster")])
        # A fast checkpoint: the default spreads it over minutes.
        run(AS_POSTGRES + [os.path.join(BIN, "pg_basebackup"), "-h", "127.0.0.1", "-p", str(primary.port), "-U", "moim",
                           "-D", os.path.join(self.dir, "cluster"), "-R", "-X", "stream", "-c", "fast"])
        options = open(os.path.join(primary.dir, "options")).read()
        options = options.replace(f"port={primary.port}", f"port={self.port}").replace(
            f"unix_socket_directories={primary.dir}", f"unix_socket_directories={self.dir}")
        with open(os.path.join(self.dir, "options"), "w") as file:
            file.write(options)
        with open(os.path.join(self.dir, "port"), "w") as file:
            file.write(str(self.port))
        run(AS_POSTGRES + [os.path.join(BIN, "pg_ctl"), "-D", os.path.join(self.dir, "cluster"), "-l",
                           os.path.join(self.dir, "server.log"), "-w", "-o", options.strip(), "start"])
        # Synchronous once it streams: commits meanwhile do not wait for a standby still copying.
        primary.psql("ALTER SYSTEM SET synchronous_standby_names = '*'", "ALTER SYSTEM SET synchronous_commit = on",
                     "SELECT pg_reload_conf()")
        for _ in range(200):
            if primary.psql("SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'") == "1":
                return
            time.sleep(0.1)
        raise SystemExit("chaos: the standby did not become synchronous")

    def promote(self):
        run(AS_POSTGRES + [os.path.join(BIN, "pg_ctl"), "-D", os.path.join(self.dir, "cluster"), "-w", "promote"])
        self.psql("ALTER SYSTEM RESET synchronous_standby_names", "SELECT pg_reload_conf()")

    def kill(self):
        try:
            postmaster = self.postmaster()
        except FileNotFoundError:
            return
        subprocess.run(["pkill", "-9", "-P", str(postmaster)])
        try:
            os.kill(postmaster, signal.SIGKILL)
        except ProcessLookupError:
            pass


# The members, through nginx over HTTPS.

class Browser(Member):
    """A member whose every answer goes into the ledger's statuses, by kind of request."""
    context = ssl._create_unverified_context()

    def __init__(self, base, statuses):
        super().__init__(base, ssl_context=self.context, timeout=30)
        self.statuses = statuses

    def request(self, path, fields=None, files=None, kind="page"):
        status, headers, body = super().request(path, fields, files)
        self.statuses.append((time.time(), kind, status))
        return status, headers.get("Location"), body

    def sign_in(self, username):
        super().sign_in(username, tries=100)


class Ledger:
    """What the site acknowledged, and every answer's status."""

    def __init__(self):
        self.lock = threading.Lock()
        self.posts = []          # (body, post id)
        self.photo_posts = []    # post ids whose photo must be served
        self.comments = []       # body
        self.likes = []          # (post id, username)
        self.address_changes = []  # new address
        self.own_write_misses = []
        self.statuses = []       # (time, kind, status), appended from many threads (list.append is atomic)

    def add(self, name, value):
        with self.lock:
            getattr(self, name).append(value)


def writer(base, username, ledger, stop):
    browser = Browser(base, ledger.statuses)
    browser.sign_in(username)
    number = 0
    while not stop.is_set():
        number += 1
        body = f"chaos post {username} {number} {uuid.uuid4().hex[:8]}"
        fields = [("_csrf", browser.csrf), ("body", body)]
        with_photo = number % 10 == 0
        status, location, _ = browser.request("/posts", fields, files=[("photos", "run.jpg", PHOTO)] if with_photo else [],
                                              kind="photo post" if with_photo else "post")
        if status != 303 or not location or not location.startswith("/posts/"):
            time.sleep(0.2)
            continue
        post_id = int(location.split("/")[2])
        ledger.add("posts", (body, post_id))
        if with_photo:
            ledger.add("photo_posts", post_id)
        status, _, page = browser.request(location, kind="own post")
        if status == 200 and body not in page:
            ledger.add("own_write_misses", (time.time(), body))
        comment = f"chaos comment {username} {number} {uuid.uuid4().hex[:8]}"
        status, _, _ = browser.request(f"/posts/{post_id}/comments", [("_csrf", browser.csrf), ("body", comment)], kind="comment")
        if status == 303:
            ledger.add("comments", comment)
        status, _, _ = browser.request(f"/posts/{post_id}/like", [("_csrf", browser.csrf), ("return_to", location)], kind="like")
        if status == 303:
            ledger.add("likes", (post_id, username))
        time.sleep(0.05)


def change_address(base, username, ledger):
    """Signs `username` in and gives them a new address: one mail to it, one to the old."""
    browser = Browser(base, ledger.statuses)
    browser.sign_in(username)
    address = f"{username}.{uuid.uuid4().hex[:8]}@chaos.example.org"
    for _ in range(60):
        status, _, _ = browser.request("/settings/email", [("_csrf", browser.csrf), ("email", address), ("email_password", "demo password")],
                                       kind="address")
        if status == 303:
            ledger.add("address_changes", address)
            return
        if status not in (0, 502, 503, 504):
            raise SystemExit(f"chaos: changing {username}'s address answered {status}")
        time.sleep(1)


class Site:
    def __init__(self, moim, work):
        self.moim, self.work = moim, work
        self.slots = [Slot(work, "pg-a"), Slot(work, "pg-b")]
        self.slots[1].port = free_port()
        self.primary, self.standby = self.slots
        self.processes = []
        self.servers = {}
        self.mail_port, self.mail_dir = free_port(), os.path.join(work, "mail")
        os.makedirs(self.mail_dir)
        self.mail = None

    def start(self):
        self.primary.start_primary()
        self.standby.start_standby_of(self.primary)
        log(f"PostgreSQL primary on {self.primary.port}, synchronous standby on {self.standby.port}")
        self.s3_dir = os.path.join(self.work, "s3")
        self.s3 = run([os.path.join(ROOT, "Tests/Doubles/object-store"), "start", self.s3_dir]).strip().splitlines()[-1]
        self.s3_pid = int(open(os.path.join(self.s3_dir, "pid")).read())
        run(["curl", "-fsS", "-X", "PUT", self.s3 + "/chaos"])
        self.start_mail(refusing=False)
        hosts = ",".join(f"127.0.0.1:{slot.port}" for slot in self.slots)
        self.database = f"postgres://moim@{hosts}/postgres?target_session_attrs=read-write&connect_timeout=2"
        run([self.moim, "demo", "--data", os.path.join(self.work, "demo"), "--database", self.database, "--users", "40",
             "--posts", "0", "--follows", "1", "--comments", "0", "--meetups", "0"])
        self.primary.psql("UPDATE users SET createdAt = now() - interval '60 days'")
        self.nginx_port = free_port()
        self.base = f"https://localhost:{self.nginx_port}"
        self.server_ports = [free_port(), free_port()]
        for index in range(2):
            self.start_server(index)
        self.start_nginx()

    def start_mail(self, refusing):
        if self.mail:
            self.mail.stdin.close()
            self.mail.wait()
        # A folder per start: the sink numbers its files from 1 each time.
        self.mail_starts = getattr(self, "mail_starts", 0) + 1
        directory = os.path.join(self.mail_dir, str(self.mail_starts))
        os.makedirs(directory)
        command = ["/usr/bin/python3", os.path.join(ROOT, "Tests/Doubles/smtp_server.py"), "--dir", directory, "--port", str(self.mail_port)]
        if refusing:
            command += ["--refuse", "1000000"]
        self.mail = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.mail.stdout.readline()

    def start_server(self, index):
        port = self.server_ports[index]
        environment = dict(os.environ, AWS_ACCESS_KEY_ID="chaos", AWS_SECRET_ACCESS_KEY="chaos-secret")
        command = [self.moim, "serve", "--no-supervise", "--port", str(port), "--data", os.path.join(self.work, f"data-{index}"),
                   "--database", self.database, "--database-timeout", "3",
                   "--database-replica", self.slots[0].url + "?connect_timeout=1", "--database-replica", self.slots[1].url + "?connect_timeout=1",
                   "--media-url", "s3://chaos/media", "--s3-endpoint", self.s3, "--smtp-url", f"smtp://127.0.0.1:{self.mail_port}",
                   "--mail-retry", "1", "--base-url", f"https://localhost:{self.nginx_port}", "--trusted-proxy", "127.0.0.1", "--quiet"]
        with open(os.path.join(self.work, f"server-{index}.log"), "a") as output:
            self.servers[index] = subprocess.Popen(command, env=environment, stdout=output, stderr=output)
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"chaos: server {index} did not start")

    def start_nginx(self):
        directory = os.path.join(self.work, "nginx")
        os.makedirs(os.path.join(directory, "media"))
        run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
             "-keyout", os.path.join(directory, "key.pem"), "-out", os.path.join(directory, "cert.pem")])
        site = open(os.path.join(ROOT, "deploy/nginx/moim.conf")).read()
        servers = "\n    ".join(f"server 127.0.0.1:{port} max_fails=1 fail_timeout=2s;" for port in self.server_ports)
        for old, new in [("server 127.0.0.1:8080;", servers), ("    listen 80;\n", f"    listen 127.0.0.1:{free_port()};\n"),
                         ("    listen [::]:80;\n", ""), ("    listen 443 ssl http2;\n", f"    listen 127.0.0.1:{self.nginx_port} ssl http2;\n"),
                         ("    listen [::]:443 ssl http2;\n", ""),
                         ("/etc/letsencrypt/live/run.example.org/fullchain.pem", os.path.join(directory, "cert.pem")),
                         ("/etc/letsencrypt/live/run.example.org/privkey.pem", os.path.join(directory, "key.pem")),
                         ("/opt/moim/Public", os.path.join(ROOT, "Public")), ("root /var/lib/moim;", f"root {directory};")]:
            assert old in site, old
            site = site.replace(old, new)
        with open(os.path.join(directory, "nginx.conf"), "w") as file:
            file.write(f"""daemon off;
master_process off;
pid {directory}/nginx.pid;
error_log {directory}/error.log;
events {{}}
http {{
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path {directory}/body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
    proxy_bind 127.0.0.1;
{site}
}}
""")
        self.nginx = subprocess.Popen(["/usr/sbin/nginx", "-p", directory, "-c", os.path.join(directory, "nginx.conf")])
        for _ in range(100):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1, context=Browser.context).read()
                return
            except OSError:
                time.sleep(0.1)
        raise SystemExit("chaos: nginx did not start")

    def stop(self):
        for process in list(self.servers.values()) + [getattr(self, "nginx", None)]:
            if process and process.poll() is None:
                process.kill()
                process.wait()
        if self.mail:
            self.mail.stdin.close()
        if getattr(self, "s3_pid", None):
            try:
                os.kill(self.s3_pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            subprocess.run([os.path.join(ROOT, "Tests/Doubles/object-store"), "stop", self.s3_dir])
        for slot in self.slots:
            slot.kill()


def first_success_after(ledger, moment, kinds=("post", "photo post", "comment", "like")):
    """Seconds from `moment` to the first acknowledged write of one of `kinds` (None: none)."""
    times = [t for t, kind, status in list(ledger.statuses) if t >= moment and kind in kinds and status == 303]
    return min(times) - moment if times else None


def check_round(site, ledger, photos_checked):
    """Every acknowledged write exactly once in the primary, every photo acknowledged since
    the last check (from `photos_checked` on) served."""
    with ledger.lock:
        posts, comments, likes = list(ledger.posts), list(ledger.comments), list(ledger.likes)
        photos = list(ledger.photo_posts[photos_checked:])
    stored_posts = collections.Counter(site.primary.psql("SELECT body FROM posts WHERE body LIKE 'chaos post %'").splitlines())
    stored_comments = collections.Counter(site.primary.psql("SELECT body FROM comments WHERE body LIKE 'chaos comment %'").splitlines())
    stored_likes = set(tuple(line.split("|")) for line in site.primary.psql(
        "SELECT likes.postID, users.username FROM likes JOIN users ON users.id = likes.userID").splitlines())
    lost = [body for body, _ in posts if stored_posts[body] != 1] + [body for body in comments if stored_comments[body] != 1]
    lost += [f"like {post} by {user}" for post, user in likes if (str(post), user) not in stored_likes]
    browser = Browser(site.base, [])
    unserved = []
    for post_id in photos:
        status, _, page = browser.request(f"/posts/{post_id}")
        sources = re.findall(r'src="(/media/[^"]+)"', page)
        if status != 200 or not sources or browser.request(sources[0])[0] != 200:
            unserved.append(post_id)
    return len(posts) + len(comments) + len(likes), lost, unserved, photos_checked + len(photos)


def main():
    moim, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    # Stopped from outside (timeout, Ctrl-C): still stop everything it started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("chaos: stopped"))
    site = Site(moim, work)
    ledger = Ledger()
    stop = threading.Event()
    results = []
    try:
        site.start()
        writers = [threading.Thread(target=writer, args=(site.base, f"runner{n}", ledger, stop), daemon=True) for n in range(1, 5)]
        for thread in writers:
            thread.start()
        time.sleep(3)
        photos_checked = 0
        for round_number in range(1, rounds + 1):
            figures = {}
            started = time.time()
            site.start_mail(refusing=True)
            time.sleep(1)
            change_address(site.base, f"runner{4 + round_number % 36 + 1}", ledger)

            # One Moim server dies; systemd starts it again 2 s later.
            index = round_number % 2
            moment = time.time()
            site.servers[index].kill()
            site.servers[index].wait()
            time.sleep(2)
            site.start_server(index)
            figures["server"] = first_success_after(ledger, moment)
            time.sleep(3)

            # The primary dies; its standby is promoted a second later, and the dead machine
            # comes back as the new standby.
            moment = time.time()
            site.primary.kill()
            time.sleep(1)
            promoted = time.time()
            site.standby.promote()
            site.primary, site.standby = site.standby, site.primary
            time.sleep(1)
            figures["primary"] = first_success_after(ledger, promoted)
            site.standby.start_standby_of(site.primary)

            # The S3 server stops for 20 s.
            os.kill(site.s3_pid, signal.SIGSTOP)
            time.sleep(20)
            resumed = time.time()
            os.kill(site.s3_pid, signal.SIGCONT)

            # The replica falls behind: replay paused for 7 s, past the 5 s bound.
            site.standby.psql("SELECT pg_wal_replay_pause()")
            time.sleep(7)
            site.standby.psql("SELECT pg_wal_replay_resume()")
            figures["s3"] = first_success_after(ledger, resumed, kinds=("photo post",))

            # The mail server takes mail again a minute after it began refusing.
            time.sleep(max(0, started + 60 - time.time()))
            site.start_mail(refusing=False)
            time.sleep(2)

            acknowledged, lost, unserved, photos_checked = check_round(site, ledger, photos_checked)
            errors = collections.Counter(status for t, _, status in list(ledger.statuses) if t >= started and (status >= 500 or status == 0))
            result = dict(round=round_number, acknowledged=acknowledged, lost=len(lost), unserved=len(unserved),
                          misses=len(ledger.own_write_misses), errors=dict(errors), **figures)
            results.append(result)
            log("round " + json.dumps(result))
            if lost or unserved or ledger.own_write_misses or any(status == 500 for t, _, status in list(ledger.statuses)):
                raise SystemExit(f"chaos: round {round_number}: lost {lost[:5]}, photos not served {unserved[:5]}, "
                                 f"own writes not seen {ledger.own_write_misses[:5]}")
        stop.set()
        for thread in writers:
            thread.join(timeout=60)
        # The replica took reads all along (counted since each server last started).
        replica_reads = 0
        for port in site.server_ports:
            metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
            found = re.search(r'^moim_database_replica_reads_total\{result="answered"\} (\d+)', metrics, re.M)
            replica_reads += int(found.group(1)) if found else 0
        log(f"reads answered by the replica since the servers last started: {replica_reads}")
        if replica_reads == 0:
            raise SystemExit("chaos: the replica answered no read")

        # Every mail queued goes out once: the queue drains, and the sink holds each message once.
        deadline = time.time() + 240
        while time.time() < deadline and site.primary.psql("SELECT count(*) FROM outbox WHERE status = 'queued'") != "0":
            time.sleep(2)
        queued = int(site.primary.psql("SELECT count(*) FROM outbox WHERE status = 'queued'"))
        failed = int(site.primary.psql("SELECT count(*) FROM outbox WHERE status = 'failed'"))
        sent = int(site.primary.psql("SELECT count(*) FROM outbox WHERE status = 'sent'"))
        identities = collections.Counter()
        recipients = collections.Counter()
        for folder, _, names in os.walk(site.mail_dir):
            for name in (name for name in names if name.endswith(".eml")):
                text = open(os.path.join(folder, name), "rb").read().decode(errors="replace")
                identities[re.search(r"^Message-ID: (.+?)\r?$", text, re.M | re.I).group(1)] += 1
                recipients[re.search(r"^X-Sink-To: (.+?)\r?$", text, re.M).group(1)] += 1
        doubled = sum(count - 1 for count in identities.values() if count > 1)
        unmailed = [address for address in ledger.address_changes if recipients[address] != 1]
        log(f"mail: {sent} sent, {queued} still queued, {failed} failed; the sink holds {sum(identities.values())} "
            f"({doubled} twice); {len(ledger.address_changes)} address changes, {len(unmailed)} without exactly one mail")

        statuses = collections.Counter(status for _, _, status in ledger.statuses)
        totals = dict(rounds=len(results), acknowledged=results[-1]["acknowledged"] if results else 0, lost=0, statuses=dict(statuses))
        log("totals " + json.dumps(totals))
        def spread(key):
            values = [r[key] for r in results if r.get(key) is not None]
            return f"{min(values):.2f}–{max(values):.2f} s" if values else "—"
        print("\n| fault (each of %d rounds) | answered again |" % len(results))
        print("|---|---|")
        print(f"| a Moim server killed with SIGKILL (restarted 2 s later) | {spread('server')} to the next acknowledged write |")
        print(f"| the primary killed with SIGKILL, the standby promoted 1 s later | {spread('primary')} after the promotion |")
        print(f"| the S3 server stopped for 20 s | {spread('s3')} to the next photo post after it resumed |")
        print(f"| the replica's replay paused 7 s (bound 5 s) | reads never stopped; {len(ledger.own_write_misses)} own writes not seen |")
        print(f"| the mail server refusing for 60 s | {sent} mails sent, {queued} left queued, {doubled} sent twice |")
        print(f"\nacknowledged writes {totals['acknowledged']}, lost 0; answers by status {dict(sorted(statuses.items()))}")
        if queued or failed or doubled or unmailed:
            raise SystemExit("chaos: mail was lost or sent twice")
        print("chaos: ok")
    finally:
        stop.set()
        site.stop()


if __name__ == "__main__":
    main()
