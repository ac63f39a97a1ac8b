"""The read replica and the own-write rule, through a real server (Tests/Faults/failover starts it with
--database-replica naming the synchronous standby and a replica that is down, and a lag bound).

With the standby's replay paused: the member who posts and likes sees both on the very next
page (their reads wait for the primary), while another member, reading from the replica, does
not see the post until the replica lags past the bound and is skipped. Once replay resumes and
the replica catches up, the first member reads from it again. No answer is ever a 500.

    replica_check.py BASE_URL STANDBY_URL LAG_SECONDS"""

import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

import site_member


class Member(site_member.Member):
    """A member for whom any answer of 500 or more ends the check."""

    def __init__(self, base, username):
        super().__init__(base)
        self.sign_in(username)

    def request(self, path, fields=None):
        status, headers, body = super().request(path, fields)
        if status >= 500 or status == 0:
            raise SystemExit(f"replica: {path} answered {status or 'nothing'}")
        return status, headers, body

    def post(self, body):
        status, headers, _ = self.request("/posts", [("_csrf", self.csrf), ("body", body)])
        if status != 303:
            raise SystemExit(f"replica: posting answered {status}")
        return headers["Location"]

    def sees(self, path, text):
        status, _, page = self.request(path)
        return status == 200 and text in page


def standby(url, sql):
    subprocess.run(["psql", "-qtAX", url, "-c", sql], check=True, stdout=subprocess.DEVNULL)


def replayed_all(url):
    """Waits until the standby has replayed all it has received. It is synchronous, so that is
    every write acknowledged so far (the members' sign-ins among them): otherwise a member
    whose last write it has not replayed yet reads from the primary, whatever the check wants."""
    for _ in range(100):
        done = subprocess.run(["psql", "-qtAX", url, "-c", "SELECT pg_last_wal_replay_lsn() >= pg_last_wal_receive_lsn()"],
                              check=True, capture_output=True, text=True).stdout.strip()
        if done == "t":
            return
        time.sleep(0.1)
    raise SystemExit("replica: the standby did not replay what it had received within 10 s")


def standby_positions(url):
    return subprocess.run(["psql", "-qtAX", url, "-c", "SELECT pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn(), pg_is_wal_replay_paused()"],
                          check=True, capture_output=True, text=True).stdout.strip()


def replica_metrics(base):
    """The server's replica lines of /metrics, to tell why a read went to the primary."""
    metrics = urllib.request.urlopen(base + "/metrics", timeout=15).read().decode()
    return "\n" + "\n".join(line for line in metrics.splitlines() if line.startswith("moim_database_replica"))


def reads_answered(base):
    metrics = urllib.request.urlopen(base + "/metrics", timeout=15).read().decode()
    found = re.search(r'^moim_database_replica_reads_total\{result="answered"\} (\d+)', metrics, re.M)
    return int(found.group(1)) if found else 0


def reads_on_replica(base, member):
    """Waits until `member`'s pages read from the replica: the server's watch threads have seen
    the replica, and seen it replay the member's last write (they look every 100 ms)."""
    for _ in range(100):
        before = reads_answered(base)
        member.request("/explore")
        if reads_answered(base) > before:
            return
        time.sleep(0.1)
    raise SystemExit("replica: a member's reads did not go to the replica within 10 s" + replica_metrics(base))


def check(condition, message):
    if not condition:
        raise SystemExit("replica: " + message)


def main():
    base, standby_url, lag = sys.argv[1], sys.argv[2], float(sys.argv[3])
    writer, reader = Member(base, "runner1"), Member(base, "runner2")
    stamp = str(time.time_ns())

    replayed_all(standby_url)
    reads_on_replica(base, reader)
    standby(standby_url, "SELECT pg_wal_replay_pause()")
    paused = time.time()
    try:
        path = writer.post(f"replica own write {stamp}")
        check(writer.sees(path, f"replica own write {stamp}"), "the writer did not see their new post on the next page")
        check(writer.sees("/u/runner1", f"replica own write {stamp}"), "the writer's profile did not show their new post")
        status, _, _ = writer.request(path + "/like", [("_csrf", writer.csrf)])
        check(status == 303, f"liking answered {status}")
        check(writer.sees(path, 'aria-pressed="true"'), "the writer did not see their like on the next page")
        check(time.time() - paused < lag, "the checks took longer than the lag bound; raise it")
        check(not reader.sees(path, stamp), "another member saw the post while the replica had not replayed it: reads are not on the replica"
              + replica_metrics(base) + f"\nthe reader's moim_wrote: {reader.cookie('moim_wrote')}; the standby: "
              + standby_positions(standby_url))
        print("replica: within the bound, the writer saw the post and the like; another member read the replica, without them")

        time.sleep(max(0, paused + lag + 0.5 - time.time()))
        check(reader.sees(path, stamp), f"another member still read a replica more than {lag:g} s behind")
        print(f"replica: past {lag:g} s of lag the replica was skipped; the other member saw the post")
    finally:
        standby(standby_url, "SELECT pg_wal_replay_resume()")

    # Caught up again, the writer's reads go back to the replica: a post it has not replayed
    # (replay paused once more) is not found by the writer, whose last write it has replayed.
    replayed_all(standby_url)
    reads_on_replica(base, writer)
    standby(standby_url, "SELECT pg_wal_replay_pause()")
    try:
        other = reader.post(f"replica later write {stamp}")
        check(reader.sees(other, stamp), "the second writer did not see their own post")
        check(not writer.sees(other, stamp), "the first member did not go back to the replica once it had caught up")
        print("replica: once caught up, the first member read from the replica again")
    finally:
        standby(standby_url, "SELECT pg_wal_replay_resume()")
    time.sleep(0.5)
    check(writer.sees(other, stamp), "the replica did not show the post after replaying it")

    # A forged or broken position only decides where that browser reads from.
    for forged in ["zz", "-1", "ffffffffffffffffff", "%00", "1" * 5000, "ffffffffffffffff"]:
        request = urllib.request.Request(base + other, headers={"Cookie": f"moim_wrote={forged}"})
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                status = response.status
        except urllib.error.HTTPError as error:
            status = error.code
        check(status in (200, 431), f"a forged moim_wrote={forged[:20]} answered {status}")

    # What an operator sees: reads answered by the replica, and one of the two taking reads
    # (the other is down).
    metrics = urllib.request.urlopen(base + "/metrics", timeout=15).read().decode()
    answered = re.search(r'^moim_database_replica_reads_total\{result="answered"\} (\d+)', metrics, re.M)
    taking = re.search(r'^moim_database_replicas\{state="taking_reads"\} ([\d.]+)', metrics, re.M)
    check(answered and int(answered.group(1)) > 0, "the metrics show no read answered by the replica")
    check(taking and float(taking.group(1)) == 1, "the metrics do not show one replica of two taking reads")
    print(f"replica: {answered.group(1)} reads answered by the replica; 1 of 2 replicas taking reads")
    print("replica: ok")


if __name__ == "__main__":
    main()
