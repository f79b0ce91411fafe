"""Secrets are never logged, never returned by a read, and compared in constant time
(issue 10, item 5 "Secrets")."""

from __future__ import annotations

import ast
import io
import logging
from pathlib import Path

import pytest

from functions.api import handler
from tests.api.harness import OPERATOR_TOKEN, InProcessApi
from tests.functions.openings import FALL_1901, SPRING_1901

ROOT = Path(__file__).resolve().parents[2]


def test_tokens_and_passwords_never_appear_in_the_logs_of_a_full_game(
    api: InProcessApi, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    # Given every logger at DEBUG, writing to a buffer we can search
    caplog.set_level(logging.DEBUG)
    buffer = io.StringIO()
    stream = logging.StreamHandler(buffer)
    logging.getLogger().addHandler(stream)
    ours = handler.logger._log  # functions/observability.py: the stdlib logger behind ours
    ours.addHandler(stream)
    previous_level = ours.level
    ours.setLevel(logging.DEBUG)
    secrets: list[str] = [OPERATOR_TOKEN, "hunter2-join-password"]
    try:
        # When a private game is played with every kind of call, good and bad
        created = api.call("POST", "/games", {"private": True, "join_password": "hunter2-join-password",
                                              "notify": [{"type": "webhook", "url": "https://hooks.example.com/x"}]})
        game_id, creator = created.body["game_id"], created.body["token"]
        secrets += [creator, created.body["webhook_secret"]]
        tokens = {}
        for power in SPRING_1901:
            joined = api.call("POST", f"/games/{game_id}/join",
                              {"power": power, "password": "hunter2-join-password"})
            tokens[power] = joined.body["token"]
        api.call("POST", f"/games/{game_id}/join", {"power": "FRANCE", "password": "wrong-password-xyz"})
        secrets += list(tokens.values()) + ["wrong-password-xyz"]
        for phase, orders in (("S1901M", SPRING_1901), ("F1901M", FALL_1901)):
            for power, texts in orders.items():
                api.call("POST", f"/games/{game_id}/orders", {"orders": texts, "phase": phase},
                         token=tokens[power])
            api.call("GET", f"/games/{game_id}", token=tokens["FRANCE"])
            api.call("POST", f"/games/{game_id}/process_turn", {"phase": phase}, token=creator)
        api.call("POST", f"/games/{game_id}/process_turn", {"phase": "W1901A"}, token=OPERATOR_TOKEN)
        api.call("POST", f"/games/{game_id}/process_turn", token=tokens["FRANCE"])  # forbidden
        api.call("GET", f"/games/{game_id}", token="not-a-real-token-but-secret-looking")
        secrets.append("not-a-real-token-but-secret-looking")
        api.raw("POST", f"/games/{game_id}/orders", b"\xff", {"authorization": f"Bearer {tokens['ITALY']}"})
    finally:
        logging.getLogger().removeHandler(stream)
        ours.removeHandler(stream)
        ours.setLevel(previous_level)
    # Then no secret appears in anything logged or printed
    captured = capsys.readouterr()
    logged = "\n".join([buffer.getvalue(), caplog.text, captured.out, captured.err])
    assert logged.strip(), "the test must capture some log output to mean anything"
    leaked = [s for s in secrets if s and s in logged]
    assert leaked == []


def test_no_read_returns_a_secret(api: InProcessApi) -> None:
    game_id, creator, tokens = api.new_game(private=False)
    secrets = [creator, *tokens.values()]
    stored = api.store.load(game_id)
    hashes = [stored.creator_token_hash] + [p["token_hash"] for p in stored.players.values()]
    for path in ("", "/orders_status", "/history", "/events", "/last_resolution"):
        for token in (None, creator, tokens["FRANCE"], OPERATOR_TOKEN):
            text = api.call("GET", f"/games/{game_id}{path}", token=token).raw
            assert not [s for s in secrets + hashes if s in text], (path, token)
    assert not [s for s in secrets + hashes if s in api.call("GET", "/games").raw]


def _compares_with_equals(path: Path, names: tuple[str, ...]) -> list[str]:
    """``==``/``!=`` comparisons that involve a name containing one of ``names``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Compare) and any(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
            text = ast.unparse(node)
            if any(n in text.lower() for n in names) and "none" not in text.lower():
                found.append(f"{path.name}:{node.lineno}: {text}")
    return found


def test_secret_comparisons_are_constant_time() -> None:
    # Every module that checks a token, password, hash, signature or secret uses hmac.compare_digest
    names = ("token_hash", "digest", "signature", "secret", "password")
    offenders: list[str] = []
    for path in sorted([*(ROOT / "functions").rglob("*.py"), *(ROOT / "infra").rglob("*.py")]):
        offenders += _compares_with_equals(path, names)
    assert offenders == []
    assert "compare_digest" in (ROOT / "functions/usecases/common.py").read_text()
    assert "compare_digest" in (ROOT / "infra/webhooks.py").read_text()


def test_identify_compares_every_seat(monkeypatch: pytest.MonkeyPatch, api: InProcessApi) -> None:
    # constant time in the number of seats too: no early exit that would time which seat matched
    import hmac as hmac_module

    from functions.usecases import common

    game_id, _, tokens = api.new_game()
    game = api.store.load(game_id)
    calls: list[int] = []
    real = hmac_module.compare_digest

    def counting(a: str, b: str) -> bool:
        calls.append(1)
        return real(a, b)

    monkeypatch.setattr(common.hmac, "compare_digest", counting)
    common.identify(game, tokens["AUSTRIA"], OPERATOR_TOKEN)
    first = len(calls)
    calls.clear()
    common.identify(game, tokens["TURKEY"], OPERATOR_TOKEN)
    assert first == len(calls) == 2 + len(game.players)
