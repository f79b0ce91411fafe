"""Reaching players (issue 33) on in-memory ports: who gets which notice, how, and only once.

Sources: the issue's items 1-4 (reminders only to powers that still owe orders, a turn result
with its map, press while away batched, game over; per-kind preferences immediate / digest /
never; one-click unsubscribe; each device its own push subscription, gone ones dropped; delivered
once and retried); RFC 8058 for the unsubscribe link.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from functions.errors import BadUnsubscribeLink, PushEndpointNotAllowed
from functions.ports.notifications import OutboxMessage
from functions.ports.reach import Connection, PushDevice
from functions.usecases.accounts.accounts import User
from functions.usecases.games import CreateGame, create_game
from functions.usecases.kinds import view_for
from functions.usecases.notifications import notice_preferences
from functions.usecases.players import Actor, hash_token
from functions.usecases.press.press import send_message
from functions.usecases.press.reading import read_messages
from functions.usecases.reach import Reach, live_updates, push_subscriptions, reach_players
from functions.usecases.reach.digests import DIGEST, DIGEST_DUE
from functions.usecases.reach.press_batches import PRESS_BATCH
from functions.usecases.seats import join_game
from functions.usecases.turns import submit_orders
from testkit.fakes import FakeClock, InMemoryGameStore, InMemoryPressStore
from testkit.reach_fakes import (
    Contacts,
    DelayedMemoryQueue,
    MemoryConnections,
    MemoryReachStore,
    RecordingMail,
    RecordingPoster,
    RecordingPush,
)
from tests.notifications.fakes import MemoryDeliveryLog, MemoryQueue

POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
KEY = "link-key-for-tests"
NOW = 1_800_000_000.0


class World:
    """A seated classical game; FRANCE and ENGLAND are accounts (u-france, u-england)."""

    def __init__(self) -> None:
        self.store, self.press, self.clock = InMemoryGameStore(), InMemoryPressStore(), FakeClock()
        self.game = create_game(self.store, self.clock, CreateGame(variant="classical")).game_id
        self.tokens = {
            p: join_game(self.store, self.clock, self.game, p, owner=self._owner(p)).token
            for p in POWERS
        }
        self.prefs, self.log, self.mail = MemoryReachStore(), MemoryDeliveryLog(), RecordingMail()
        self.contacts = Contacts({"u-france": "france@example.com", "u-england": "england@example.com"})
        self.push, self.connections, self.poster = RecordingPush(), MemoryConnections(), RecordingPoster()
        self.queue, self.delayed = MemoryQueue(), DelayedMemoryQueue()

    @staticmethod
    def _owner(power: str) -> User | None:
        return User(f"u-{power.lower()}", power.title()) if power in ("FRANCE", "ENGLAND") else None

    def reach(self, **changes: Any) -> Reach:
        base = Reach(store=self.store, press=self.press, prefs=self.prefs, log=self.log,
                     connections=self.connections, poster=self.poster, mail=self.mail, contacts=self.contacts,
                     push=self.push, queue=self.queue, delayed=self.delayed, public_url="https://convoy.test",
                     link_key=KEY, map_png=lambda game, phase, power: b"\x89PNG-map")
        return base._replace(**changes)

    def deliver(self, message: OutboxMessage, now: float = NOW, **changes: Any) -> Any:
        return reach_players(message, self.reach(**changes), now=now)

    def reminder(self, waiting: list[str]) -> OutboxMessage:
        payload = {"phase": "S1901M", "deadline": "2030-01-01T00:00:00Z", "waiting_on": waiting}
        return OutboxMessage(f"{self.game}:remind:S1901M", "DEADLINE_APPROACHING", self.game, payload)

    def order(self, power: str, orders: list[str]) -> None:
        submit_orders(self.store, self.clock, self.game, Actor("player", power), orders)

    def device(self, user: str, name: str) -> PushDevice:
        device = PushDevice(f"d-{name}", f"https://fcm.googleapis.com/fcm/send/{name}", "p", "a")
        self.prefs.add_device(user, device, 10)
        return device


@pytest.fixture()
def world() -> World:
    return World()


# --- reminders: only to powers that still owe, decided when sent ------------------------------


def test_a_reminder_reaches_only_accounts_whose_power_still_owes_orders(world: World) -> None:
    # Given the reminder was written while FRANCE and ENGLAND both owed orders
    message = world.reminder(["ENGLAND", "FRANCE", "ITALY"])
    # When ENGLAND submits before the notifier delivers it
    world.order("ENGLAND", ["F LON - NTH"])
    world.deliver(message)
    # Then only FRANCE is mailed (ITALY owes but has no account)
    assert [m.to for m in world.mail.sent] == ["france@example.com"]
    (mail,) = world.mail.sent
    assert "FRANCE" in mail.text and "S1901M" in mail.subject
    assert mail.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert mail.headers["List-Unsubscribe"].startswith("<https://convoy.test/mail/unsubscribe?t=u-france.reminder.")


def test_a_reminder_for_a_phase_that_moved_on_reaches_no_one(world: World) -> None:
    message = world.reminder(["FRANCE"])
    stale = dataclasses.replace(message, payload={**message.payload, "phase": "F1901M"})
    world.deliver(stale)
    assert world.mail.sent == [] and world.push.sent == []


def test_a_redelivered_notice_is_sent_once_and_a_failed_mail_is_retried_alone(world: World) -> None:
    world.device("u-france", "phone")
    world.mail.fail = 1
    first = world.deliver(world.reminder(["FRANCE"]))
    assert first.failed == {"mail:u-france": "ConnectionError"}  # the notifier reports it: SQS retries
    assert len(world.push.sent) == 1
    again = world.deliver(world.reminder(["FRANCE"]))
    assert again.failed == {} and again.sent == ["mail:u-france"] and "push:u-france:d-phone" in again.skipped
    world.deliver(world.reminder(["FRANCE"]))
    assert len(world.mail.sent) == 1 and len(world.push.sent) == 1


def test_an_address_ses_refuses_for_good_is_not_retried(world: World) -> None:
    world.mail.refuse = {"france@example.com"}
    done = world.deliver(world.reminder(["FRANCE"]))
    assert done.failed == {} and world.log.was_delivered(f"{world.game}:remind:S1901M", "mail:u-france")


def test_an_account_without_a_verified_address_gets_no_mail(world: World) -> None:
    world.contacts.addresses.pop("u-france")
    assert world.deliver(world.reminder(["FRANCE"])).failed == {}
    assert world.mail.sent == []


# --- turn results and game over ----------------------------------------------------------------


def test_a_turn_result_goes_to_every_seated_account_with_the_resolution_map(world: World) -> None:
    payload = {"phase": "S1901M", "next_phase": "F1901M", "deadline": None, "map": "/x"}
    world.deliver(OutboxMessage(f"{world.game}:processed:0", "PHASE_PROCESSED", world.game, payload))
    assert sorted(m.to for m in world.mail.sent) == ["england@example.com", "france@example.com"]
    assert all(m.inline_png == b"\x89PNG-map" and "cid:map" in m.html for m in world.mail.sent)


def test_game_over_reaches_every_seated_account(world: World) -> None:
    world.deliver(OutboxMessage(f"{world.game}:end", "GAME_ENDED", world.game, {"summary": "a draw"}))
    assert sorted(m.subject for m in world.mail.sent) == [f"classical {world.game} is over"] * 2


# --- preferences: immediate, digest, never; unsubscribe -------------------------------------------


def test_never_sends_nothing_and_the_other_channel_still_works(world: World) -> None:
    notice_preferences.change(world.prefs, "u-france", {"mail": {"reminder": "never"}})
    world.device("u-france", "phone")
    world.deliver(world.reminder(["FRANCE"]))
    assert world.mail.sent == [] and len(world.push.sent) == 1


def test_a_digest_collects_the_day_and_is_mailed_once_the_next_morning(world: World) -> None:
    # Given FRANCE takes reminders and turn results as a daily digest
    choices = {"mail": {"reminder": "digest", "turn_result": "digest"}}
    notice_preferences.change(world.prefs, "u-france", choices)
    world.deliver(world.reminder(["FRANCE"]))
    payload = {"phase": "S1901M", "next_phase": "F1901M"}
    world.deliver(OutboxMessage(f"{world.game}:p0", "PHASE_PROCESSED", world.game, payload))
    assert [m.to for m in world.mail.sent] == ["england@example.com"]  # nothing to FRANCE yet
    # When the next day's DIGEST_DUE comes (the schedule's message), then the DIGEST it queued
    world.deliver(OutboxMessage("digest-due", DIGEST_DUE), now=NOW + 86_400)
    (digest,) = [m for m in world.queue.sent if m.kind == DIGEST]
    world.deliver(digest, now=NOW + 86_400)
    world.deliver(digest, now=NOW + 86_400)  # redelivered: nothing more
    # Then FRANCE gets one mail with both lines, whose link stops what was digested
    (mail,) = [m for m in world.mail.sent if m.to == "france@example.com"]
    assert mail.subject.startswith("Your Convoy digest") and "orders are due" in mail.text
    assert "resolved" in mail.text
    token = mail.headers["List-Unsubscribe"].split("t=")[1].rstrip(">")
    notice_preferences.unsubscribe(world.prefs, KEY, token)
    chosen = notice_preferences.effective(world.prefs.preferences("u-france"))["mail"]
    assert chosen == {"reminder": "never", "turn_result": "never", "press": "immediate",
                      "game_over": "immediate"}


def test_unsubscribe_links_are_signed_and_name_one_kind() -> None:
    store = MemoryReachStore()
    token = notice_preferences.unsubscribe_token(KEY, "u-1", "press")
    assert notice_preferences.unsubscribe(store, KEY, token) == ("u-1", "press")
    assert notice_preferences.effective(store.preferences("u-1"))["mail"]["press"] == "never"
    for forged in (token[:-2] + "xx", token.replace("u-1", "u-2"), token.replace("press", "reminder"),
                   "u-1.press", ""):
        with pytest.raises(BadUnsubscribeLink):
            notice_preferences.read_token(KEY, forged)
    with pytest.raises(BadUnsubscribeLink):
        notice_preferences.read_token("another key", token)


# --- push: every device, gone ones dropped, endpoints checked -----------------------------------


def test_every_device_of_an_account_gets_the_push_and_a_gone_one_is_dropped(world: World) -> None:
    for name in ("phone", "laptop", "old"):
        world.device("u-france", name)
    world.push.gone = {"https://fcm.googleapis.com/fcm/send/old"}
    done = world.deliver(world.reminder(["FRANCE"]))
    assert sorted(d for d, _ in world.push.sent) == ["d-laptop", "d-phone"] and done.failed == {}
    assert [d.device_id for d in world.prefs.devices("u-france")] == ["d-laptop", "d-phone"]
    shown = json.loads(world.push.sent[0][1])
    assert shown["url"] == f"https://convoy.test/#/games/{world.game}" and "S1901M" in shown["title"]


@pytest.mark.parametrize("endpoint", [
    "http://fcm.googleapis.com/fcm/send/x", "https://fcm.googleapis.com.evil.example/x",
    "https://user:pw@fcm.googleapis.com/x", "https://fcm.googleapis.com:8443/x", "https://169.254.169.254/x",
    "http://127.0.0.1:9/x",
])
def test_a_push_endpoint_must_be_a_known_push_service_over_https(endpoint: str) -> None:
    with pytest.raises(PushEndpointNotAllowed):
        push_subscriptions.check_endpoint(endpoint)
    push_subscriptions.check_endpoint("https://updates.push.services.mozilla.com/wpush/v2/x")
    push_subscriptions.check_endpoint("http://127.0.0.1:9/x", allow_loopback=True)


# --- live frames: each connection its own view; press only to its members ------------------------


def _connect(world: World, connection_id: str, token: str | None = None, user: str | None = None) -> None:
    digest = hash_token(token) if token else None
    world.connections.subscribe(Connection(connection_id, user, digest, None, int(NOW) + 3600), world.game)


def test_each_connection_gets_its_callers_rest_view_and_press_only_of_its_channels(world: World) -> None:
    _connect(world, "c-fr", user="u-france")
    _connect(world, "c-it", token=world.tokens["ITALY"])
    _connect(world, "c-obs")
    world.order("FRANCE", ["A PAR - BUR"])
    world.deliver(OutboxMessage(f"{world.game}:sub", "ORDERS_SUBMITTED", world.game,
                                {"power": "FRANCE", "phase": "S1901M"}))
    frames = {c: json.loads(d) for c, d in world.poster.frames}
    game = world.store.load(world.game)
    for connection, actor in (("c-fr", Actor("player", "FRANCE", user_id="u-france")),
                              ("c-it", Actor("player", "ITALY")), ("c-obs", Actor("anonymous"))):
        assert frames[connection]["view"] == json.loads(json.dumps(view_for(game, actor, world.press)))
    assert frames["c-it"]["view"]["orders"] == {"ITALY": []} and frames["c-fr"]["view"]["orders"]["FRANCE"]
    # press between FRANCE and ENGLAND reaches FRANCE's socket only
    world.poster.frames.clear()
    send_message(world.store, world.press, world.clock, world.game, Actor("player", "ENGLAND"),
                 ["FRANCE"], "psst")
    world.deliver(OutboxMessage(f"{world.game}:press:1", "MESSAGE", world.game,
                                {"channel": "ENGLAND,FRANCE", "seq": 1, "phase": "S1901M"}))
    assert [c for c, _ in world.poster.frames] == ["c-fr"]
    assert json.loads(world.poster.frames[0][1])["message"]["text"] == "psst"


def test_a_connection_whose_seat_changed_hands_or_that_is_gone_gets_nothing(world: World) -> None:
    _connect(world, "c-old", token="a token of no seat here")
    _connect(world, "c-gone", token=world.tokens["ITALY"])
    world.poster.gone = {"c-gone"}
    posted = world.deliver(OutboxMessage(f"{world.game}:x", "PLAYER_JOINED", world.game, {"power": "ITALY"}))
    assert posted.live == live_updates.Posted(sent=0, gone=1, failed=0)
    assert [c.connection_id for c in world.connections.of_game(world.game, NOW)] == ["c-old"]


# --- press while away: batched into one mail, from the recipient's own inbox ------------------------


def test_press_while_away_is_batched_and_read_press_is_not_mailed(world: World) -> None:
    def send(text: str, seq: int) -> OutboxMessage:
        send_message(world.store, world.press, world.clock, world.game, Actor("player", "ENGLAND"),
                     ["FRANCE"], text)
        return OutboxMessage(f"{world.game}:press:{seq}", "MESSAGE", world.game,
                             {"channel": "ENGLAND,FRANCE", "seq": seq, "phase": "S1901M"})

    world.deliver(send("first", 1))
    world.deliver(send("second", 2))
    assert [(m.kind, delay) for m, delay in world.delayed.later] == [(PRESS_BATCH, 600)]  # one batch
    ((flush, _),) = world.delayed.later
    world.deliver(flush)
    (mail,) = world.mail.sent
    assert mail.to == "france@example.com" and "first" in mail.text and "second" in mail.text
    assert "2 new messages" in mail.subject
    # a message FRANCE reads before the next batch flushes is not mailed
    world.deliver(send("third", 3))
    read_messages(world.store, world.press, world.game, Actor("player", "FRANCE"), channel="ENGLAND,FRANCE")
    from functions.usecases.press.reading import mark_read

    mark_read(world.store, world.press, world.game, Actor("player", "FRANCE"), "ENGLAND,FRANCE", 3)
    world.deliver(world.delayed.later[-1][0])
    assert len(world.mail.sent) == 1


def test_press_to_a_player_on_the_page_opens_no_batch(world: World) -> None:
    _connect(world, "c-fr", token=world.tokens["FRANCE"])
    send_message(world.store, world.press, world.clock, world.game, Actor("player", "ENGLAND"),
                 ["FRANCE"], "hi")
    world.deliver(OutboxMessage(f"{world.game}:press:1", "MESSAGE", world.game,
                                {"channel": "ENGLAND,FRANCE", "seq": 1, "phase": "S1901M"}))
    assert world.delayed.later == [] and len(world.poster.frames) == 1


def test_press_to_a_player_whose_socket_closed_unseen_is_batched(world: World) -> None:
    # Given FRANCE's page subscribed and was closed: no $disconnect route, its subscription stays
    _connect(world, "c-fr", token=world.tokens["FRANCE"])
    world.poster.gone = {"c-fr"}
    send_message(world.store, world.press, world.clock, world.game, Actor("player", "ENGLAND"),
                 ["FRANCE"], "hi")
    # When the press is delivered
    done = world.deliver(OutboxMessage(f"{world.game}:press:1", "MESSAGE", world.game,
                                       {"channel": "ENGLAND,FRANCE", "seq": 1, "phase": "S1901M"}))
    # Then its frame met 410, the subscription is forgotten before presence is read: FRANCE is away
    assert done.live == live_updates.Posted(sent=0, gone=1, failed=0)
    assert world.connections.of_game(world.game, NOW) == []
    assert [(m.kind, delay) for m, delay in world.delayed.later] == [(PRESS_BATCH, 600)]
