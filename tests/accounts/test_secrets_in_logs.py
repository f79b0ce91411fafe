"""Issue 15 items 1 and 5: passwords, confirmation codes, ID/access/refresh tokens and the
operator token never appear in the logs, however the account routes are called."""

from __future__ import annotations

import io
import logging

import pytest

from functions.api import handler
from testkit.api_harness import OPERATOR_TOKEN, InProcessApi


def test_account_secrets_and_the_operator_token_never_reach_the_logs(
    api: InProcessApi, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    # Given every logger at DEBUG, writing to a buffer we can search
    caplog.set_level(logging.DEBUG)
    buffer = io.StringIO()
    stream = logging.StreamHandler(buffer)
    logging.getLogger().addHandler(stream)
    ours = logging.getLogger(handler.logger.service)  # the stdlib logger behind Powertools' Logger
    ours.addHandler(stream)
    previous = ours.level
    ours.setLevel(logging.DEBUG)
    secrets = [OPERATOR_TOKEN, "Sekret-Passw0rd", "Wr0ng-Passw0rd", "123456", "654321"]
    try:
        # When an account is made, confirmed (once with a wrong code), signed in and used everywhere
        email = "ada@example.com"
        api.call("POST", "/auth/signup",
                 {"email": email, "password": "Sekret-Passw0rd", "display_name": "Ada"})
        api.call("POST", "/auth/confirm", {"email": email, "code": "654321"})
        api.call("POST", "/auth/confirm", {"email": email, "code": "123456"})
        api.call("POST", "/auth/signin", {"email": email, "password": "Wr0ng-Passw0rd"})
        tokens = api.call("POST", "/auth/signin", {"email": email, "password": "Sekret-Passw0rd"}).body
        fresh = api.call("POST", "/auth/refresh", {"refresh_token": tokens["refresh_token"]}).body
        secrets += [tokens["id_token"], tokens["access_token"], tokens["refresh_token"], fresh["id_token"]]
        jwt = tokens["id_token"]
        game = api.call("POST", "/games", {"variant": "classical"}, token=jwt).body
        seat = api.call("POST", f"/games/{game['game_id']}/join", {"power": "FRANCE"}, token=jwt).body
        other = api.call("POST", f"/games/{game['game_id']}/join", {"power": "ITALY"}).body
        secrets += [game["token"], seat["token"], other["token"]]
        api.call("POST", "/me/seats", {"game_id": game["game_id"], "token": other["token"]}, token=jwt)
        api.call("POST", f"/games/{game['game_id']}/orders", {"orders": ["A PAR - BUR"]}, token=jwt)
        api.call("GET", "/me/games", token=jwt)
        forged = api.pool.forge(tokens["user"]["user_id"])
        api.call("GET", "/me", token=forged)
        api.call("GET", "/me", token=tokens["access_token"])
        api.call("POST", f"/games/{game['game_id']}/pause", token=OPERATOR_TOKEN)
        api.call("POST", f"/games/{game['game_id']}/process_turn", {"phase": "S1901M"}, token=OPERATOR_TOKEN)
        secrets.append(forged)
    finally:
        logging.getLogger().removeHandler(stream)
        ours.removeHandler(stream)
        ours.setLevel(previous)
    captured = capsys.readouterr()
    logged = "\n".join([buffer.getvalue(), caplog.text, captured.out, captured.err])
    assert "rejected" in logged, "the test must capture some log output to mean anything"
    assert [s for s in secrets if s and s in logged] == []
