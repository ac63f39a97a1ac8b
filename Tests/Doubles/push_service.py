"""A push service on loopback for the tests (Tests/Doubles/push-service), checking every request as a real one
does: the VAPID token (RFC 8292) verified with `cryptography`'s ES256 against the key the
request names, its audience, expiry and subject; the body decrypted with `http_ece` (RFC 8188
and 8291) with the browser's private key, which only this double holds; TTL, Urgency and
Topic read as RFC 8030 says. A request that fails any check is answered 400 with the reason,
and counted.

Control (tests only, under /_control): make a browser subscription, read what was delivered,
make an endpoint answer 404, 410, 429 or 500, or hang.
"""
import base64
import json
import secrets
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
import py_vapid
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

lock = threading.Lock()
browsers = {}  # id -> {"key": private key, "auth": bytes}
delivered = []
refused = []
modes = {}  # id -> "404" | "410" | "429" | "500" | "hang"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_vapid(authorization, audience):
    """The token is ES256 by the key in k=, for this origin, unexpired, with a contact."""
    if not authorization.startswith("vapid "):
        raise ValueError("not a vapid authorization")
    fields = dict(part.strip().split("=", 1) for part in authorization[6:].split(","))
    token, key = fields["t"], unb64url(fields["k"])
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
    head, claims, signature = token.split(".")
    header = json.loads(unb64url(head))
    if header.get("alg") != "ES256":
        raise ValueError("alg is not ES256")
    raw = unb64url(signature)
    if len(raw) != 64:
        raise ValueError("signature is not r||s")
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    try:
        public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise ValueError("bad VAPID signature")
    body = json.loads(unb64url(claims))
    if body.get("aud") != audience:
        raise ValueError(f"aud {body.get('aud')!r} is not {audience!r}")
    if not (time.time() < body["exp"] <= time.time() + 86400):
        raise ValueError("exp out of range")
    if not str(body.get("sub", "")).startswith(("mailto:", "https:")):
        raise ValueError("no contact in sub")
    if py_vapid.b64urldecode(fields["k"].encode()) != key:  # py-vapid reads the key the same way
        raise ValueError("py-vapid reads another key")
    return b64url(key)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, payload=b"", headers=()):
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def do_GET(self):
        if self.path == "/_control/messages":
            with lock:
                return self.answer(200, {"delivered": delivered, "refused": refused})
        return self.answer(404)

    def do_POST(self):
        body = self.body()
        parts = urllib.parse.urlsplit(self.path).path.split("/")
        if parts[1] == "_control":
            if parts[2] == "subscribe":
                key = ec.generate_private_key(ec.SECP256R1())
                auth = secrets.token_bytes(16)
                browser = secrets.token_hex(8)
                with lock:
                    browsers[browser] = {"key": key, "auth": auth}
                point = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
                return self.answer(200, {"endpoint": f"http://{self.headers['Host']}/push/{browser}", "keys": {"p256dh": b64url(point), "auth": b64url(auth)}})
            if parts[2] == "mode":
                with lock:
                    modes[parts[3]] = json.loads(body).get("mode")
                return self.answer(200, {"ok": True})
            return self.answer(404)
        if parts[1] != "push" or len(parts) < 3:
            return self.answer(404)
        browser = parts[2]
        with lock:
            mode = modes.get(browser)
            known = browsers.get(browser)
        if mode == "hang":
            time.sleep(30)
            return self.answer(201)
        if mode in ("404", "410", "500"):
            return self.answer(int(mode))
        if mode == "429":
            return self.answer(429, headers=[("Retry-After", "7")])
        if known is None:
            return self.answer(410)
        try:
            vapid_key = check_vapid(self.headers.get("Authorization", ""), f"http://{self.headers['Host']}")
            if self.headers.get("Content-Encoding") != "aes128gcm":
                raise ValueError("Content-Encoding is not aes128gcm")
            ttl = int(self.headers["TTL"])
            urgency = self.headers.get("Urgency", "normal")
            if urgency not in ("very-low", "low", "normal", "high"):
                raise ValueError("bad Urgency")
            topic = self.headers.get("Topic")
            if topic is not None and (len(topic) > 32 or not all(c.isalnum() or c in "-_" for c in topic)):
                raise ValueError("bad Topic")
            payload = http_ece.decrypt(body, private_key=known["key"], auth_secret=known["auth"], version="aes128gcm")
        except Exception as error:  # noqa: BLE001
            with lock:
                refused.append(f"{browser}: {error!r}")
            return self.answer(400, {"error": repr(error)})
        with lock:
            delivered.append({"browser": browser, "payload": payload.decode(), "ttl": ttl, "urgency": urgency, "topic": topic,
                              "vapid_key": vapid_key})
        return self.answer(201, headers=[("Location", f"/messages/{secrets.token_hex(4)}")])


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
