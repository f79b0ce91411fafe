"""The adapters that reach players (issue 33) against moto, tables from template.yaml: the
connections table (one item per subscription, expired ones skipped, a forget drops one), the
user's settings, devices, press batches and digests in the game table, and the mail's MIME."""

from __future__ import annotations

from email import message_from_bytes
from email.policy import default

import boto3

from functions.ports.reach import Connection, MailMessage, PressBatch, PushDevice
from infra.dynamodb.reach_store import MAX_LINES, DynamoReachStore
from infra.live_connections import DynamoConnectionStore
from infra.ses_mail import mime


def _client() -> object:
    return boto3.client("dynamodb", region_name="us-east-1")


def test_a_games_connections_are_one_query_and_expired_ones_are_skipped(aws: dict[str, str]) -> None:
    store = DynamoConnectionStore(aws["CONNECTIONS_TABLE"], client=_client())
    for name, expires in (("a=", 2000), ("b=", 500), ("c=", 2000)):
        store.subscribe(Connection(name, user_id="u1", expires_at=expires), "g1")
    assert store.of_game("g1", now=1000) == [Connection("a=", "u1", None, "g1", 2000),
                                             Connection("c=", "u1", None, "g1", 2000)]
    # a second game is followed beside the first; forgetting one subscription leaves the other
    store.subscribe(Connection("a=", token_hash="h", expires_at=2000), "g2")
    store.forget("g1", "a=")
    assert [c.connection_id for c in store.of_game("g1", now=1000)] == ["c="]
    assert store.of_game("g2", now=1000) == [Connection("a=", None, "h", "g2", 2000)]
    store.forget("g1", "never-subscribed=")  # idempotent
    scan = boto3.client("dynamodb", region_name="us-east-1").scan
    items = scan(TableName=aws["CONNECTIONS_TABLE"])["Items"]
    assert sorted(i["pk"]["S"] for i in items) == ["GAME#g1", "GAME#g1", "GAME#g2"]  # no CONN# item


def test_preferences_devices_batches_and_digests_round_trip(aws: dict[str, str]) -> None:
    store = DynamoReachStore(aws["GAME_TABLE"], client=_client(), clock=lambda: 1000.0)
    assert store.preferences("u1") == {}
    store.save_preferences("u1", {"mail": {"press": "digest"}})
    assert store.preferences("u1") == {"mail": {"press": "digest"}}
    phone = PushDevice("d1", "https://fcm.googleapis.com/x", "p", "a", "2030-01-01", "phone")
    assert store.add_device("u1", phone, limit=2)
    assert store.add_device("u1", phone._replace(label="again"), limit=1)  # the same device: replaced
    assert not store.add_device("u1", phone._replace(device_id="d2"), limit=1)
    assert [d.label for d in store.devices("u1")] == ["again"]
    store.remove_device("u1", "d1")
    assert store.devices("u1") == []
    batch = PressBatch("u1", "g1", "FRANCE", "2030-01-01T00:00:00Z", 1000)
    assert store.open_press_batch(batch) and not store.open_press_batch(batch._replace(opened_at=2000))
    assert store.press_batch("u1", "g1") == batch
    store.close_press_batch("u1", "g1")
    assert store.press_batch("u1", "g1") is None and store.open_press_batch(batch)
    for n in range(MAX_LINES + 5):
        store.add_digest_line("u1", "2030-01-01", "mail", f"line {n}")
    assert len(store.digest_lines("u1", "2030-01-01")) == MAX_LINES  # a full digest keeps its first lines
    assert store.digest_users("2030-01-01", 10) == ["u1"]
    store.forget_digest_user("2030-01-01", "u1")
    store.drop_digest("u1", "2030-01-01")
    assert store.digest_users("2030-01-01", 10) == [] and store.digest_lines("u1", "2030-01-01") == []


def test_a_mail_is_text_and_html_with_the_unsubscribe_headers_and_the_map_inline() -> None:
    message = MailMessage("ada@example.com", "S1901M resolved", "plain", "<p>html <img src='cid:map'></p>",
                          {"List-Unsubscribe": "<https://x/mail/unsubscribe?t=a>",
                           "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}, b"\x89PNG-bytes")
    mail = message_from_bytes(mime(message, "Convoy <notify@example.org>"), policy=default)
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click" and mail["To"] == "ada@example.com"
    plain = mail.get_body(("plain",))
    assert plain is not None and plain.get_content().strip() == "plain"
    related = [p for p in mail.walk() if p.get_content_type() == "multipart/related"]
    (picture,) = [p for p in mail.walk() if p.get_content_type() == "image/png"]
    assert related and picture["Content-ID"] == "<map>" and picture.get_content() == b"\x89PNG-bytes"
