"""A member posting as fast as the site lets them while script/failover kills the primary and
promotes the standby: every answer is written to a file, one line each, "time status
retry-after body", each body "failover post ROUND N".

    failover_writes.py BASE_URL SECONDS OUTPUT ROUND"""

import http.cookiejar
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def main():
    base, seconds, output, label = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)

    def request(path, fields=None):
        data = urllib.parse.urlencode(fields).encode() if fields is not None else None
        try:
            with opener.open(urllib.request.Request(base + path, data=data), timeout=15) as response:
                return response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read().decode(errors="replace")
        except OSError:
            return 0, {}, ""

    def token():
        status, _, body = request("/posts/new")
        match = re.search(r'name="_csrf" value="([^"]+)"', body)
        return match.group(1) if match else None

    _, _, login = request("/login")
    csrf = re.search(r'name="_csrf" value="([^"]+)"', login).group(1)
    status, _, _ = request("/login", [("_csrf", csrf), ("login", "runner1"), ("password", "demo password")])
    if status != 303:
        raise SystemExit(f"could not sign in: {status}")
    csrf = token()
    end, number = time.time() + seconds, 0
    with open(output, "w") as log:
        while time.time() < end:
            number += 1
            body = f"failover post {label} {number}"
            status, headers, _ = request("/posts", [("_csrf", csrf), ("body", body)])
            log.write(f"{time.time():.3f} {status} {headers.get('Retry-After', '-') if headers else '-'} {body}\n")
            log.flush()
            time.sleep(0.02)


if __name__ == "__main__":
    main()
