"""oidc-provider-mock (a real OpenID Connect provider built for tests), with token revocation
(RFC 7009) added the way Sign in with Apple and Google offer it: discovery names a
`revocation_endpoint`; a POST there with the token, its type hint and the client's credentials
revokes it, answering 200 whether or not the token was still valid. A revoked refresh token
is then refused by the token endpoint, which is what a test checks.

Run by Tests/Doubles/oidc-provider; usage: oidc_provider.py PORT [USER_CLAIMS_JSON…]"""

import json
import logging
import os
import sys
from http import HTTPStatus

import flask
import uvicorn
from oidc_provider_mock import app as provider_app
from oidc_provider_mock._storage import User, storage


def users(arguments):
    """Predefined users from `--user-claims`-style JSON objects, each with a `sub`."""
    for text in arguments:
        claims = json.loads(text)
        yield User(sub=claims.pop("sub"), claims=claims)


def main():
    port, claims = int(sys.argv[1]), sys.argv[2:]
    os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"
    logging.basicConfig(level=logging.INFO)
    app = provider_app(require_nonce=True, user_claims=list(users(claims)))

    @app.post("/oauth2/revoke")
    def revoke():
        form = flask.request.form
        # RFC 7009 §2.1: the client authenticates, and may revoke only its own tokens.
        client, secret, token = form.get("client_id", ""), form.get("client_secret", ""), form.get("token", "")
        if not client or not secret:
            return flask.jsonify({"error": "invalid_client"}), HTTPStatus.UNAUTHORIZED
        if not token:
            return flask.jsonify({"error": "invalid_request"}), HTTPStatus.BAD_REQUEST
        if form.get("token_type_hint", "refresh_token") not in ("refresh_token", "access_token"):
            return flask.jsonify({"error": "unsupported_token_type"}), HTTPStatus.BAD_REQUEST
        refresh = storage.get_refresh_token(token)
        if refresh is not None and refresh.client_id == client:
            storage.remove_refresh_token(token)
            storage.remove_access_token(refresh.access_token)
        return "", HTTPStatus.OK

    @app.after_request
    def name_revocation(response):
        if flask.request.path == "/.well-known/openid-configuration" and response.status_code == 200:
            document = response.get_json()
            document["revocation_endpoint"] = flask.request.host_url + "oauth2/revoke"
            response.set_data(json.dumps(document))
        return response

    uvicorn.run(app, interface="wsgi", port=port, host="127.0.0.1", log_config=None)


main()
