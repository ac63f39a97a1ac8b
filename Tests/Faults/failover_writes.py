"""A member posting as fast as the site lets them while Tests/Faults/failover kills the primary and
promotes the standby: every answer is written to a file, one line each, "time status
retry-after body", each body "failover post ROUND N".

    failover_writes.py BASE_URL SECONDS OUTPUT ROUND"""

import sys
import time

from site_member import Member


def main():
    base, seconds, output, label = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
    member = Member(base)
    member.sign_in("runner1")
    end, number = time.time() + seconds, 0
    with open(output, "w") as log:
        while time.time() < end:
            number += 1
            body = f"failover post {label} {number}"
            status, headers, _ = member.request("/posts", [("_csrf", member.csrf), ("body", body)])
            log.write(f"{time.time():.3f} {status} {headers.get('Retry-After', '-') if headers else '-'} {body}\n")
            log.flush()
            time.sleep(0.02)


if __name__ == "__main__":
    main()
