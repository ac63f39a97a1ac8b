"""One member of a running Moim site, for the scripts that drive it over HTTP (Tests/Faults/chaos.py,
Tests/Faults/replica_check.py, Tests/Faults/failover_writes.py): their own cookies, redirects not followed
(a form's 303 and its Location are the answer), and the CSRF token the site's forms carry."""

import http.cookiejar
import re
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def csrf_token(page):
    """The CSRF token of the first form on `page`, or None."""
    match = re.search(r'name="_csrf" value="([^"]+)"', page)
    return match.group(1) if match else None


class Member:
    def __init__(self, base, ssl_context=None, timeout=15):
        self.base = base
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        handlers = [urllib.request.HTTPCookieProcessor(self.jar), NoRedirect]
        if ssl_context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=ssl_context))
        self.opener = urllib.request.build_opener(*handlers)
        self.csrf = None

    def cookie(self, name):
        """The value of the cookie `name` the site set, or None."""
        return next((cookie.value for cookie in self.jar if cookie.name == name), None)

    def request(self, path, fields=None, files=None):
        """GET `path`, or POST `fields` (and `files`: (name, filename, bytes) JPEGs, as a
        multipart form). Returns (status, headers, body); status 0 when nothing answered."""
        headers, data = {}, None
        if files:
            boundary = uuid.uuid4().hex
            parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode() for name, value in fields]
            parts += [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                      f'Content-Type: image/jpeg\r\n\r\n'.encode() + content + b"\r\n" for name, filename, content in files]
            data = b"".join(parts) + f"--{boundary}--\r\n".encode()
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        elif fields is not None:
            data = urllib.parse.urlencode(fields).encode()
        try:
            with self.opener.open(urllib.request.Request(self.base + path, data=data, headers=headers), timeout=self.timeout) as response:
                return response.status, response.headers, response.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read().decode(errors="replace")
        except OSError:
            return 0, {}, ""

    def sign_in(self, username, password="demo password", tries=1):
        """Signs in and keeps the token for later forms; tries again every half second (a site
        coming up, a server restarting) before giving up."""
        status = 0
        for attempt in range(tries):
            if attempt:
                time.sleep(0.5)
            status, _, page = self.request("/login")
            token = csrf_token(page)
            if token is None:
                continue
            status, _, _ = self.request("/login", [("_csrf", token), ("login", username), ("password", password)])
            if status == 303:
                _, _, page = self.request("/posts/new")
                self.csrf = csrf_token(page)
                if self.csrf:
                    return
        raise SystemExit(f"{username} could not sign in ({status})")
