"""One round of Tests/Faults/failover judged: from the writer's answers (failover_writes.py) and the
posts the new primary holds. Fails unless every answer was 303 or a 503 with Retry-After, writes
were answered again within 10 s of the promotion, and every acknowledged post is there once.

    failover_check.py ANSWERS STORED FAULTED_AT PROMOTED_AT WHAT"""

import collections
import sys


def main():
    answers = [line.split(" ", 3) for line in open(sys.argv[1]).read().splitlines()]
    stored = collections.Counter(open(sys.argv[2]).read().splitlines())
    promoted, what = float(sys.argv[4]), sys.argv[5]
    acknowledged = [body for _, status, _, body in answers if status == "303"]
    statuses = collections.Counter(status for _, status, _, _ in answers)
    failed = [(status, retry) for _, status, retry, _ in answers if status != "303"]
    back = min((float(at) for at, status, _, _ in answers if status == "303" and float(at) > promoted), default=None)
    lost = [body for body in acknowledged if stored[body] != 1]
    print(f"{what}: answers {dict(statuses)}; acknowledged {len(acknowledged)}, lost or doubled {len(lost)}; "
          + (f"writes answered again {back - promoted:.2f} s after the promotion" if back else "writes never answered again"))
    problems = []
    if any(status != "503" for status, _ in failed):
        problems.append(f"answers other than 303 and 503: {[status for status, _ in failed if status != '503']}")
    if any(retry == "-" for status, retry in failed if status == "503"):
        problems.append("a 503 without Retry-After")
    if back is None or back - promoted > 10:
        problems.append("not answering within 10 s of the promotion")
    if lost:
        problems.append(f"{len(lost)} acknowledged posts lost or doubled")
    if problems:
        print(f"{what}: FAIL: " + "; ".join(problems))
        sys.exit(1)


if __name__ == "__main__":
    main()
