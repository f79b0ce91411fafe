"""Secrets are never logged, never returned by a read, and compared in constant time
(issue 10, item 5 "Secrets")."""

from __future__ import annotations

import ast
import io
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace

import pytest

from functions.api import handler
from testkit.api_harness import OPERATOR_TOKEN, InProcessApi
from testkit.openings import FALL_1901, SPRING_1901

ROOT = Path(__file__).resolve().parents[2]


def test_tokens_and_passwords_never_appear_in_the_logs_of_a_full_game(
    api: InProcessApi, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    # Given every logger at DEBUG, writing to a buffer we can search
    caplog.set_level(logging.DEBUG)
    buffer = io.StringIO()
    stream = logging.StreamHandler(buffer)
    logging.getLogger().addHandler(stream)
    ours = logging.getLogger(handler.logger.service)  # the stdlib logger behind Powertools' Logger
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
    assert "compare_digest" in (ROOT / "functions/usecases/players/identity.py").read_text()
    assert "compare_digest" in (ROOT / "infra/webhooks.py").read_text()


def test_identify_compares_every_seat(monkeypatch: pytest.MonkeyPatch, api: InProcessApi) -> None:
    # constant time in the number of seats too: no early exit that would time which seat matched
    import hmac as hmac_module

    from functions.usecases.players import identity

    game_id, _, tokens = api.new_game()
    game = api.store.load(game_id)
    calls: list[int] = []
    real = hmac_module.compare_digest

    def counting(a: str, b: str) -> bool:
        calls.append(1)
        return real(a, b)

    monkeypatch.setattr("functions.usecases.players.identity.hmac.compare_digest", counting)
    identity.identify(game, tokens["AUSTRIA"], OPERATOR_TOKEN)
    first = len(calls)
    calls.clear()
    identity.identify(game, tokens["TURKEY"], OPERATOR_TOKEN)
    assert first == len(calls) == 2 + len(game.players)


# ---------------------------------------------------------------- every log call (issue 11)

LOG_METHODS = {"debug", "info", "warning", "error", "exception", "critical"}
FORBIDDEN_IN_LOGS = ("raw", "record", "event", "body", "token", "secret", "password", "header", "payload",
                     "text", "image", "url")


SANITISERS = ("record_reference",)  # functions/relay/handler.py: ids and the error type only


def _names_in(value: ast.AST) -> list[ast.Name | ast.Attribute]:
    """Names and attributes in ``value``, except inside a call to a sanitiser."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in SANITISERS:
        return []
    here = [value] if isinstance(value, ast.Name | ast.Attribute) else []
    return here + [n for child in ast.iter_child_nodes(value) for n in _names_in(child)]


def _logged_names(path: Path) -> list[str]:
    """Names and attributes passed to a logger call (its arguments and its ``extra`` values);
    ``*_id`` names (message and game ids) are identifiers, not contents."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in LOG_METHODS and isinstance(node.func.value, ast.Name)
                and node.func.value.id in ("logger", "log", "_log", "logging")):
            continue
        values = [*node.args[1:], *(k.value for k in node.keywords)]
        for value in values:
            for inner in _names_in(value):
                name = inner.id if isinstance(inner, ast.Name) else inner.attr
                if not name.endswith("_id") and any(word in name.lower() for word in FORBIDDEN_IN_LOGS):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(inner)}")
    return found


def test_no_log_call_in_functions_is_handed_a_record_body_or_secret() -> None:
    # the relay logged whole raw stream records (bot reply text, secrets); now every log call
    # in functions/ is checked for what it is handed
    paths = sorted((ROOT / "functions").rglob("*.py"))
    offenders = [hit for path in paths for hit in _logged_names(path)]
    assert offenders == []


def _captured_logs(capsys: pytest.CaptureFixture[str], run: Callable[[], object]) -> str:
    from functions.observability import get_logger

    ours = logging.getLogger(get_logger().service)  # the stdlib logger behind Powertools' Logger
    previous = ours.level
    ours.setLevel(logging.DEBUG)
    try:
        run()
    finally:
        ours.setLevel(previous)
    captured = capsys.readouterr()
    return captured.out + captured.err


def test_the_relay_logs_no_part_of_an_unreadable_record(capsys: pytest.CaptureFixture[str]) -> None:
    # Given an OUTBOX record that cannot be read, holding a webhook secret and a bot reply
    from boto3.dynamodb.types import TypeSerializer

    from functions.ports.notifications import OutboxMessage
    from functions.relay.handler import make_handler
    from infra.dynamodb.stream_images import STREAM_IMAGES

    image = {"pk": "TGCHAT#70", "sk": "OUTBOX#tg:1", "kind": "CHAT_REPLY", "dedupe_key": "tg:1",
             "payload": {"text": "your orders: A PAR - BUR (private-reply-text)"},
             "target": {"type": "webhook", "url": "https://hooks.example.com/x?token=url-token-123",
                        "secret": "webhook-secret-abc"}}
    serialize = TypeSerializer().serialize
    broken = {"eventID": "e1", "eventName": "INSERT", "dynamodb": {
        "Keys": {"pk": {"S": "TGCHAT#70"}, "sk": {"S": "OUTBOX#tg:1"}}, "SequenceNumber": "1",
        "NewImage": {**{k: serialize(v) for k, v in image.items()}, "target": {"S": "not-a-map"},
                     "payload": {"BOGUS": "x"}}}}

    class Queue:
        def send_messages(self, messages: Sequence[OutboxMessage], delay_seconds: int = 0) -> set[str]:
            return set()

    # When the relay skips it
    relay = make_handler(lambda: Queue(), STREAM_IMAGES)
    logged = _captured_logs(capsys, lambda: relay({"Records": [broken]}, None))

    # Then the log says which record, and nothing of what it holds
    assert "unreadable outbox record skipped" in logged and '"sequence_number":"1"' in logged
    for secret in ("webhook-secret-abc", "url-token-123", "private-reply-text", "BOGUS"):
        assert secret not in logged


def test_the_notifier_logs_no_url_token_or_bot_token(capsys: pytest.CaptureFixture[str]) -> None:
    # Given targets whose URLs carry tokens, each failing in its own way, and a bot token
    from functions.adapters import HttpDeliverer
    from functions.notifier.handler import make_handler
    from functions.ports.notifications import (
        DeliveryTarget,
        DiscordTarget,
        OutboxMessage,
        TelegramTarget,
        WebhookTarget,
    )
    from infra.webhooks import HttpDelivery, HttpSettings
    from tests.notifications.fakes import MemoryDeliveryLog, StaticTargets

    def nowhere(host: str, port: int, **_: object) -> list[tuple[object, ...]]:
        raise OSError("no such host")

    settings = HttpSettings(telegram_bot_token="123456:bot-token-xyz",
                            telegram_api_base="https://api.telegram.invalid:99999")
    http = HttpDelivery(settings, resolver=nowhere)
    targets: list[DeliveryTarget] = [DiscordTarget("https://discord.com/api/webhooks/1/discord-token-777"),
               WebhookTarget("https://hooks.example.com:70000/x?key=port-token-555",
                             "hook-secret-999"),
               WebhookTarget("https://hooks.example.org/x?key=dns-token-444", "hook-secret-888"),
               TelegramTarget(-100123)]
    # the notifier reads .targets, .deliverer and .log by name; the real HTTP deliverer here
    deps = SimpleNamespace(targets=StaticTargets({"g1": targets}), deliverer=HttpDeliverer(http),
                           log=MemoryDeliveryLog())
    message = OutboxMessage("g1:1", "PHASE_PROCESSED", "g1", {"phase": "S1901M"})
    event = {"Records": [{"messageId": "m1", "body": message.to_json()}]}

    # When the notifier tries them all
    logged = _captured_logs(capsys, lambda: make_handler(lambda: deps)(event, None))

    # Then the failure is logged with type and host only
    assert "notification failed" in logged and "discord.com" in logged
    for secret in ("discord-token-777", "port-token-555", "dns-token-444", "hook-secret-999",
                   "hook-secret-888", "bot-token-xyz"):
        assert secret not in logged, secret
