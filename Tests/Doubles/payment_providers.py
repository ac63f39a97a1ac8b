"""A stand-in for PortOne V2's and Stripe's APIs on loopback, for the tests (Tests/Doubles/payment-providers).

It answers in exactly the shapes the providers' own SDKs accept: before any answer leaves,
PortOne's answers go through `portone-server-sdk`'s deserializers and Stripe's through the
`stripe` package's object conversion, and an answer they refuse is a 500 with the reason,
which fails the test that asked. Webhooks are signed by the providers' own libraries
(`standardwebhooks` for PortOne's Standard Webhooks, `stripe` for Stripe-Signature) and
checked back by them before they are sent. The payment windows are plain pages: PortOne's
browser SDK is stood in for by a script that goes to the double's window page (the redirect
flow phones use), Stripe Checkout by a page with Pay and Cancel.

Control (for tests only, under /_control): force a payment's answer, sign a payload, read the
requests received, point webhooks at a server, make an endpoint fail or hang.
"""
import base64
import datetime
import html
import json
import secrets
import sys
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import standardwebhooks
import stripe
from stripe._util import convert_to_stripe_object
from portone_server_sdk import webhook as portone_webhook
from portone_server_sdk._generated.payment.cancel_payment_response import _deserialize_cancel_payment_response
from portone_server_sdk._generated.payment.payment import _deserialize_payment
from portone_server_sdk._generated.payment.pre_register_payment_body import _deserialize_pre_register_payment_body
from portone_server_sdk._generated.payment.cancel_payment_body import _deserialize_cancel_payment_body
from portone_server_sdk._generated.payment.pre_register_payment_response import _deserialize_pre_register_payment_response

PORTONE_SECRET = "portone-test-secret"
STORE_ID = "store-00000000-0000-0000-0000-000000000001"
PORTONE_WEBHOOK_SECRET = "whsec_" + base64.b64encode(b"moim-portone-webhook-secret-32by").decode()
STRIPE_KEY = "sk_test_moim"
STRIPE_WEBHOOK_SECRET = "whsec_moim_stripe_test"

lock = threading.Lock()
portone_payments = {}
stripe_sessions = {}
stripe_refunds = []
idempotency = {}
requests_log = []
webhook_targets = {}
faults = {}  # path prefix -> "500" | "hang"
sdk_refusals = []


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).isoformat().replace("+00:00", "Z")


def portone_payment_json(p):
    """A PortOne Payment in the status it is in, as GET /payments/{id} answers."""
    base = {
        "status": p["status"], "id": p["id"], "merchantId": "merchant-moim", "storeId": p.get("storeId", STORE_ID),
        "channel": {"type": "TEST", "id": "channel-id-1", "key": "channel-key-test", "name": "test channel",
                    "pgProvider": "INICIS_V2", "pgMerchantId": "INIpayTest"},
        "version": "V2", "requestedAt": p["requestedAt"], "updatedAt": now_iso(), "statusChangedAt": now_iso(),
        "orderName": p.get("orderName", "Moim"),
        "amount": {"total": p["amount"], "taxFree": 0, "vat": 0, "supply": p["amount"], "discount": 0,
                   "paid": p.get("paid", 0), "cancelled": p.get("cancelled", 0), "cancelledTaxFree": 0},
        "currency": p["currency"], "customer": {"id": "moim-member"}, "isCulturalExpense": False,
        "origin": {"platformType": "PC", "ipAddress": "127.0.0.1"},
        "disputes": [], "promotionId": None,
    }
    base.pop("promotionId")
    if p["status"] in ("PAID", "PARTIAL_CANCELLED", "CANCELLED"):
        base.update({"transactionId": p["transactionId"], "paidAt": p["paidAt"], "pgTxId": "pg-" + p["transactionId"],
                     "method": {"type": "PaymentMethodCard", "card": {}}, "receiptUrl": "https://example.invalid/receipt",
                     "cashReceipt": None})
        base.pop("cashReceipt")
    if p["status"] in ("PARTIAL_CANCELLED", "CANCELLED"):
        base["cancellations"] = p["cancellations"]
        base["cancelledAt"] = p["cancellations"][-1]["cancelledAt"]
    if p["status"] == "FAILED":
        base.update({"transactionId": p["transactionId"], "failedAt": now_iso(), "failure": {"reason": p.get("reason", "card declined"), "pgCode": "F01", "pgMessage": p.get("reason", "card declined")}})
    if p["status"] == "READY":
        base["transactionId"] = p["transactionId"]
    return base


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    # -- plumbing --
    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def answer(self, status, payload, content_type="application/json", headers=()):
        data = payload if isinstance(payload, bytes) else (json.dumps(payload) if content_type == "application/json" else payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type + ("; charset=utf-8" if content_type.startswith("text/") else ""))
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def checked(self, status, payload, deserialize):
        """Answers only what the provider's SDK reads without error."""
        try:
            deserialize(json.loads(json.dumps(payload)))
        except Exception as error:  # noqa: BLE001
            sdk_refusals.append(f"{self.path}: {error!r}")
            return self.answer(500, {"type": "DOUBLE_BROKEN", "message": f"the SDK refused this answer: {error!r}"})
        return self.answer(status, payload)

    def stripe_checked(self, status, payload):
        obj = convert_to_stripe_object(json.loads(json.dumps(payload)), STRIPE_KEY)
        expected = {"checkout.session": stripe.checkout.Session, "refund": stripe.Refund, "list": stripe.ListObject}.get(payload.get("object"))
        if expected is not None and not isinstance(obj, expected):
            sdk_refusals.append(f"{self.path}: stripe read {type(obj).__name__}")
            return self.answer(500, {"error": {"type": "api_error", "message": "the stripe package did not read this answer"}})
        return self.answer(status, payload)

    def fault(self):
        for prefix, kind in faults.items():
            if self.path.startswith(prefix):
                if kind == "hang":
                    time.sleep(30)
                return self.answer(503, {"type": "UNAVAILABLE", "message": "down for the test"}) or True
        return False

    def record(self, body):
        requests_log.append({"method": self.command, "path": self.path, "authorization": self.headers.get("Authorization"),
                             "idempotency": self.headers.get("Idempotency-Key"), "body": body.decode(errors="replace")})

    # -- routes --
    def do_GET(self):
        body = b""
        parsed = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(parsed.query))
        if parsed.path == "/browser-sdk.js":
            return self.answer(200, STANDIN_SDK.replace("ORIGIN", self.origin()), "text/javascript")
        if parsed.path == "/_window":
            return self.window_page(query)
        if parsed.path.startswith("/checkout/"):
            return self.checkout_page(parsed.path.split("/")[2])
        if parsed.path == "/_control/requests":
            return self.answer(200, {"requests": requests_log, "sdk_refusals": sdk_refusals})
        if parsed.path.startswith("/_control/"):
            return self.answer(404, {"message": "no such control"})
        self.record(body)
        if self.fault():
            return
        if parsed.path.startswith("/payments/"):
            return self.portone_get(parsed.path.split("/")[2], query)
        if parsed.path.startswith("/v1/checkout/sessions/"):
            return self.stripe_session_get(parsed.path.split("/")[4])
        if parsed.path == "/v1/refunds":
            return self.stripe_refund_list(query)
        return self.answer(404, {"message": "not found"})

    def do_POST(self):
        body = self.body()
        parsed = urllib.parse.urlsplit(self.path)
        parts = parsed.path.split("/")
        if parsed.path.startswith("/_control/"):
            return self.control(parts[2:], json.loads(body or b"{}"))
        if parsed.path.startswith("/_window/"):
            return self.window_submit(parts[2], dict(urllib.parse.parse_qsl(body.decode())))
        if parsed.path.startswith("/checkout/"):
            return self.checkout_submit(parts[2], parts[3])
        self.record(body)
        if self.fault():
            return
        if parsed.path.startswith("/payments/") and parsed.path.endswith("/pre-register"):
            return self.portone_pre_register(urllib.parse.unquote(parts[2]), body)
        if parsed.path.startswith("/payments/") and parsed.path.endswith("/cancel"):
            return self.portone_cancel(urllib.parse.unquote(parts[2]), body)
        if parsed.path == "/v1/checkout/sessions":
            return self.stripe_session_create(body)
        if parsed.path.startswith("/v1/checkout/sessions/") and parsed.path.endswith("/expire"):
            return self.stripe_session_expire(parts[4])
        if parsed.path == "/v1/refunds":
            return self.stripe_refund(body)
        return self.answer(404, {"message": "not found"})

    def origin(self):
        return "http://" + self.headers.get("Host", "127.0.0.1")

    # -- PortOne --
    def portone_auth(self):
        if self.headers.get("Authorization") != "PortOne " + PORTONE_SECRET:
            self.answer(401, {"type": "UNAUTHORIZED", "message": "bad secret"})
            return False
        return True

    def portone_pre_register(self, payment_id, body):
        if not self.portone_auth():
            return
        request = json.loads(body)
        _deserialize_pre_register_payment_body(request)  # what the SDK itself would send
        with lock:
            existing = portone_payments.get(payment_id)
            if existing and existing["status"] != "READY":
                return self.answer(409, {"type": "ALREADY_PAID", "message": "already paid"})
            if request.get("storeId") != STORE_ID:
                return self.answer(403, {"type": "FORBIDDEN", "message": "another store"})
            portone_payments[payment_id] = {"id": payment_id, "status": "READY", "amount": request["totalAmount"],
                                            "currency": request["currency"], "requestedAt": now_iso(),
                                            "transactionId": "tx-" + secrets.token_hex(8)}
        return self.checked(200, {}, _deserialize_pre_register_payment_response)

    def portone_get(self, payment_id, query):
        if not self.portone_auth():
            return
        payment_id = urllib.parse.unquote(payment_id)
        with lock:
            p = portone_payments.get(payment_id)
            if p is None or query.get("storeId") not in (None, STORE_ID):
                return self.answer(404, {"type": "PAYMENT_NOT_FOUND", "message": "no such payment"})
            payload = portone_payment_json(p)
        return self.checked(200, payload, _deserialize_payment)

    def portone_cancel(self, payment_id, body):
        if not self.portone_auth():
            return
        request = json.loads(body)
        _deserialize_cancel_payment_body(request)
        with lock:
            p = portone_payments.get(payment_id)
            if p is None:
                return self.answer(404, {"type": "PAYMENT_NOT_FOUND", "message": "no such payment"})
            if p["status"] not in ("PAID", "PARTIAL_CANCELLED"):
                return self.answer(409, {"type": "PAYMENT_NOT_PAID", "message": "not paid"})
            left = p["paid"] - p.get("cancelled", 0)
            amount = request.get("amount", left)
            if amount <= 0 or amount > left:
                return self.answer(400, {"type": "CANCEL_AMOUNT_EXCEEDS_CANCELLABLE_AMOUNT", "message": "too much"})
            cancellation = {"status": "SUCCEEDED", "id": "cancel-" + secrets.token_hex(6), "pgCancellationId": "pgc",
                            "totalAmount": amount, "taxFreeAmount": 0, "vatAmount": 0, "reason": request["reason"],
                            "requestedAt": now_iso(), "cancelledAt": now_iso()}
            p.setdefault("cancellations", []).append(cancellation)
            p["cancelled"] = p.get("cancelled", 0) + amount
            p["status"] = "CANCELLED" if p["cancelled"] == p["paid"] else "PARTIAL_CANCELLED"
        self.send_portone_webhook("Transaction.Cancelled" if p["status"] == "CANCELLED" else "Transaction.PartialCancelled", payment_id)
        return self.checked(200, {"cancellation": cancellation}, _deserialize_cancel_payment_response)

    def window_page(self, query):
        fields = "".join(f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">' for k, v in query.items())
        page = f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>PortOne test window</title></head><body><main><h1>Test PG window</h1>
<p>{html.escape(query.get('orderName', ''))}: <strong id="amount">{html.escape(query.get('totalAmount', ''))} {html.escape(query.get('currency', ''))}</strong></p>
<form method="post" action="/_window/pay">{fields}<button id="pay" type="submit">Pay</button></form>
<form method="post" action="/_window/cancel">{fields}<button id="cancel" type="submit">Cancel</button></form></main></body></html>"""
        return self.answer(200, page, "text/html")

    def window_submit(self, action, form):
        payment_id = form.get("paymentId", "")
        redirect = form.get("redirectUrl", "")
        with lock:
            p = portone_payments.get(payment_id)
            valid = p is not None and p["status"] == "READY" and form.get("storeId") == STORE_ID
            # PortOne refuses a window whose amount is not the pre-registered one.
            if valid and (int(form.get("totalAmount", "0")) != p["amount"] or form.get("currency") != p["currency"]):
                valid = False
            if valid and action == "pay":
                p.update(status="PAID", paid=p["amount"], paidAt=now_iso())
        if action == "pay" and valid:
            self.send_portone_webhook("Transaction.Paid", payment_id)
            target = redirect + ("&" if "?" in redirect else "?") + urllib.parse.urlencode({"paymentId": payment_id})
        else:
            code = "FAILURE_TYPE_PG" if action == "pay" else "PAY_PROCESS_CANCELED"
            target = redirect + ("&" if "?" in redirect else "?") + urllib.parse.urlencode({"paymentId": payment_id, "code": code, "message": action})
        return self.answer(303, b"", "text/plain", [("Location", target)])

    def send_portone_webhook(self, kind, payment_id):
        url = webhook_targets.get("portone")
        if not url:
            return
        payload = json.dumps({"type": kind, "timestamp": now_iso(), "data": {"paymentId": payment_id, "storeId": STORE_ID, "transactionId": "tx"}})
        headers = sign_portone(payload)
        threading.Thread(target=post, args=(url, payload.encode(), headers), daemon=True).start()

    # -- Stripe --
    def stripe_auth(self):
        if self.headers.get("Authorization") != "Bearer " + STRIPE_KEY:
            self.answer(401, {"error": {"type": "invalid_request_error", "message": "Invalid API Key provided"}})
            return False
        return True

    def stripe_session_create(self, body):
        if not self.stripe_auth():
            return
        key = self.headers.get("Idempotency-Key")
        form = dict(urllib.parse.parse_qsl(body.decode(), keep_blank_values=True))
        with lock:
            if key and key in idempotency:
                return self.stripe_checked(200, stripe_sessions[idempotency[key]])
            for name in ("mode", "success_url", "cancel_url", "line_items[0][price_data][unit_amount]", "line_items[0][price_data][currency]"):
                if name not in form:
                    return self.answer(400, {"error": {"type": "invalid_request_error", "code": "parameter_missing", "param": name, "message": "Missing " + name}})
            session_id = "cs_test_" + secrets.token_hex(12)
            session = {"id": session_id, "object": "checkout.session", "mode": "payment", "status": "open", "payment_status": "unpaid",
                       "amount_total": int(form["line_items[0][price_data][unit_amount]"]), "currency": form["line_items[0][price_data][currency]"],
                       "client_reference_id": form.get("client_reference_id"), "metadata": {"moim_payment": form.get("metadata[moim_payment]", "")},
                       "success_url": form["success_url"], "cancel_url": form["cancel_url"], "payment_intent": None,
                       "url": self.origin() + "/checkout/" + session_id, "livemode": False, "created": int(time.time()),
                       "expires_at": int(form.get("expires_at") or time.time() + 86400), "customer_email": form.get("customer_email"),
                       "locale": form.get("locale"), "_name": form.get("line_items[0][price_data][product_data][name]", "")}
            stripe_sessions[session_id] = session
            if key:
                idempotency[key] = session_id
        return self.stripe_checked(200, public(session))

    def stripe_session_get(self, session_id):
        if not self.stripe_auth():
            return
        with lock:
            session = stripe_sessions.get(session_id)
        if session is None:
            return self.answer(404, {"error": {"type": "invalid_request_error", "code": "resource_missing", "message": "No such checkout.session"}})
        return self.stripe_checked(200, public(session))

    def stripe_session_expire(self, session_id):
        if not self.stripe_auth():
            return
        with lock:
            session = stripe_sessions.get(session_id)
            if session is None:
                return self.answer(404, {"error": {"type": "invalid_request_error", "code": "resource_missing", "message": "No such checkout.session"}})
            if session["status"] != "open":
                return self.answer(400, {"error": {"type": "invalid_request_error", "message": "Only open sessions can be expired."}})
            session.update(status="expired", url=None)
        self.send_stripe_event("checkout.session.expired", session)
        return self.stripe_checked(200, public(session))

    def stripe_refund(self, body):
        if not self.stripe_auth():
            return
        form = dict(urllib.parse.parse_qsl(body.decode()))
        key = self.headers.get("Idempotency-Key")
        with lock:
            if key and key in idempotency:
                return self.stripe_checked(200, next(r for r in stripe_refunds if r["id"] == idempotency[key]))
            session = next((s for s in stripe_sessions.values() if s["payment_intent"] == form.get("payment_intent")), None)
            if session is None:
                return self.answer(400, {"error": {"type": "invalid_request_error", "code": "resource_missing", "message": "No such payment_intent"}})
            given = sum(r["amount"] for r in stripe_refunds if r["payment_intent"] == session["payment_intent"])
            amount = int(form.get("amount", session["amount_total"] - given))
            if amount <= 0 or given + amount > session["amount_total"]:
                return self.answer(400, {"error": {"type": "invalid_request_error", "code": "charge_already_refunded", "message": "Refund exceeds the charge"}})
            refund = {"id": "re_" + secrets.token_hex(10), "object": "refund", "amount": amount, "currency": session["currency"],
                      "payment_intent": session["payment_intent"], "status": "succeeded", "created": int(time.time()),
                      "metadata": {"reason": form.get("metadata[reason]", "")}}
            stripe_refunds.append(refund)
            if key:
                idempotency[key] = refund["id"]
        return self.stripe_checked(200, refund)

    def stripe_refund_list(self, query):
        if not self.stripe_auth():
            return
        with lock:
            data = [r for r in stripe_refunds if r["payment_intent"] == query.get("payment_intent")]
        return self.stripe_checked(200, {"object": "list", "data": data, "has_more": False, "url": "/v1/refunds"})

    def checkout_page(self, session_id):
        session = stripe_sessions.get(session_id)
        if session is None or session["status"] != "open":
            return self.answer(404, "<!doctype html><title>Gone</title><p>This checkout is closed.</p>", "text/html")
        amount = session["amount_total"]
        page = f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Stripe test checkout</title></head><body><main><h1>Test checkout</h1><p>{html.escape(session['_name'])}</p>
<p><strong id="amount">{amount} {session['currency'].upper()}</strong></p>
<form method="post" action="/checkout/{session_id}/pay"><button id="pay" type="submit">Pay</button></form>
<form method="post" action="/checkout/{session_id}/cancel"><button id="cancel" type="submit">Back</button></form></main></body></html>"""
        return self.answer(200, page, "text/html")

    def checkout_submit(self, session_id, action):
        with lock:
            session = stripe_sessions.get(session_id)
            if session is None or session["status"] != "open":
                return self.answer(404, "closed", "text/plain")
            if action == "pay":
                session.update(status="complete", payment_status="paid", payment_intent="pi_" + secrets.token_hex(10), url=None)
                target = session["success_url"].replace("{CHECKOUT_SESSION_ID}", session_id)
            else:
                target = session["cancel_url"]
        if action == "pay":
            self.send_stripe_event("checkout.session.completed", session)
        return self.answer(303, b"", "text/plain", [("Location", target)])

    def send_stripe_event(self, kind, session):
        url = webhook_targets.get("stripe")
        if not url:
            return
        payload = json.dumps(stripe_event(kind, session))
        threading.Thread(target=post, args=(url, payload.encode(), {"Stripe-Signature": sign_stripe(payload)}), daemon=True).start()

    # -- control --
    def control(self, parts, request):
        if parts[0] == "webhooks":
            webhook_targets.update(request)
            return self.answer(200, {"ok": True})
        if parts[0] == "fault":
            if request.get("kind"):
                faults[request["prefix"]] = request["kind"]
            else:
                faults.pop(request["prefix"], None)
            return self.answer(200, {"ok": True})
        if parts[0] == "portone":  # force a payment's state: {"status", "paid", "currency", "storeId", "reason"}
            with lock:
                p = portone_payments.setdefault(parts[1], {"id": parts[1], "status": "READY", "amount": request.get("paid", 0), "currency": "KRW",
                                                           "requestedAt": now_iso(), "transactionId": "tx-" + secrets.token_hex(8)})
                p.update({k: v for k, v in request.items()})
                if p["status"] == "PAID":
                    p.setdefault("paidAt", now_iso())
            return self.answer(200, portone_payment_json(p))
        if parts[0] == "stripe":  # {"pay": true, "amount_total": …}
            with lock:
                session = stripe_sessions[parts[1]]
                if request.pop("pay", False):
                    session.update(status="complete", payment_status="paid", payment_intent="pi_" + secrets.token_hex(10), url=None)
                session.update(request)
            return self.answer(200, public(session))
        if parts[0] == "sign":  # {"provider", "payload", "timestamp"?}: headers the provider would send
            payload = request["payload"] if isinstance(request["payload"], str) else json.dumps(request["payload"])
            if request["provider"] == "portone":
                return self.answer(200, sign_portone(payload, request.get("timestamp")))
            return self.answer(200, {"Stripe-Signature": sign_stripe(payload, request.get("timestamp"))})
        if parts[0] == "event":  # a Stripe event for a session, signed: {"type", "session"}
            with lock:
                session = stripe_sessions[request["session"]]
            payload = json.dumps(stripe_event(request["type"], session))
            return self.answer(200, {"payload": payload, "headers": {"Stripe-Signature": sign_stripe(payload)}})
        return self.answer(404, {"message": "no such control"})


def public(session):
    return {k: v for k, v in session.items() if not k.startswith("_")}


def stripe_event(kind, session):
    return {"id": "evt_" + secrets.token_hex(10), "object": "event", "api_version": "2024-06-20", "created": int(time.time()),
            "livemode": False, "pending_webhooks": 1, "type": kind, "data": {"object": public(session)}}


def sign_portone(payload, timestamp=None):
    """Standard Webhooks' own signer, checked back by PortOne's SDK."""
    msg_id = "msg_" + secrets.token_hex(8)
    when = datetime.datetime.fromtimestamp(timestamp or time.time(), tz=datetime.timezone.utc)
    signature = standardwebhooks.Webhook(PORTONE_WEBHOOK_SECRET).sign(msg_id, when, payload)
    headers = {"webhook-id": msg_id, "webhook-timestamp": str(int(when.timestamp())), "webhook-signature": signature}
    if timestamp is None:
        portone_webhook.verify(PORTONE_WEBHOOK_SECRET, payload, headers)
    return headers


def sign_stripe(payload, timestamp=None):
    """Stripe's own signature, checked back by its library."""
    when = int(timestamp or time.time())
    header = f"t={when},v1=" + stripe.WebhookSignature._compute_signature(f"{when}.{payload}", STRIPE_WEBHOOK_SECRET)
    if timestamp is None:
        stripe.Webhook.construct_event(payload, header, STRIPE_WEBHOOK_SECRET)
    return header


def post(url, body, headers):
    for _ in range(5):  # providers retry until they get a 2xx
        try:
            request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json", **headers}, method="POST")
            with urllib.request.urlopen(request, timeout=10) as response:
                if 200 <= response.status < 300:
                    return
        except Exception:  # noqa: BLE001
            pass
        time.sleep(1)


STANDIN_SDK = """// Stands in for PortOne's browser SDK in tests: the redirect flow (what phones do), to the double's window.
window.PortOne = {
  requestPayment: function (request) {
    var query = new URLSearchParams({paymentId: request.paymentId, storeId: request.storeId, channelKey: request.channelKey,
      orderName: request.orderName, totalAmount: String(request.totalAmount), currency: request.currency, payMethod: request.payMethod,
      redirectUrl: request.redirectUrl});
    window.location.assign("ORIGIN/_window?" + query.toString());
    return new Promise(function () {});
  }
};
"""

if __name__ == "__main__":
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.serve_forever()
