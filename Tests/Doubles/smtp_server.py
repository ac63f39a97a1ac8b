#!/usr/bin/python3
"""A real SMTP server for the tests (aiosmtpd, Debian's python3-aiosmtpd): every message it
accepts is written to DIR/NNNNN.eml, preceded by X-Sink-* lines saying how it arrived.

  smtp_server.py --dir DIR [--port N] [--refuse N] [--reject-domain D] [--tls CERT KEY] [--auth USER:PASS]

--refuse N        answer the first N messages with 451 (try again later)
--reject-domain D answer 550 to recipients at D (a permanent refusal)
--tls CERT KEY    offer STARTTLS with this certificate
--auth USER:PASS  offer AUTH PLAIN/LOGIN and require it

Prints "port N" once listening (port 0: any free port); exits when its standard input
closes, so that it never outlives the test that started it.
"""
import argparse
import asyncio
import os
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult


class Sink:
    def __init__(self, directory, refuse, reject_domain):
        self.directory = directory
        self.refuse = refuse
        self.reject_domain = reject_domain
        self.count = 0

    async def handle_RCPT(self, server, session, envelope, address, options):
        if self.reject_domain and address.lower().endswith("@" + self.reject_domain):
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.refuse > 0:
            self.refuse -= 1
            return "451 4.3.0 Mailbox busy, try again later"
        self.count += 1
        path = os.path.join(self.directory, "%05d.eml" % self.count)
        sink_lines = [
            "X-Sink-From: %s" % envelope.mail_from,
            "X-Sink-To: %s" % ",".join(envelope.rcpt_tos),
            "X-Sink-TLS: %s" % ("yes" if session.ssl else "no"),
            "X-Sink-Auth: %s" % ("yes" if session.authenticated else "no"),
        ]
        with open(path + ".tmp", "wb") as file:
            file.write(("\r\n".join(sink_lines) + "\r\n").encode())
            file.write(envelope.original_content)
        os.rename(path + ".tmp", path)  # whole files only, for the reader
        return "250 2.0.0 OK"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--refuse", type=int, default=0)
    parser.add_argument("--reject-domain")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--auth")
    options = parser.parse_args()

    handler = Sink(options.dir, options.refuse, options.reject_domain)
    settings = {"hostname": "sink.test", "decode_data": False, "auth_require_tls": False}
    if options.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*options.tls)
        settings["tls_context"] = context
    if options.auth:
        user, password = options.auth.split(":", 1)

        def authenticator(server, session, envelope, mechanism, data):
            return AuthResult(success=data.login == user.encode() and data.password == password.encode())

        settings["authenticator"] = authenticator
        settings["auth_required"] = True

    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(
        loop.create_server(lambda: SMTP(handler, **settings), "127.0.0.1", options.port))
    print("port %d" % server.sockets[0].getsockname()[1], flush=True)
    loop.add_reader(sys.stdin.fileno(), lambda: sys.stdin.buffer.read1(4096) or loop.stop())
    loop.run_forever()


if __name__ == "__main__":
    main()
