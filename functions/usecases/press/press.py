"""Press (issue 13): send a message to a channel, read the caller's messages and channels,
mark a channel read, and the caller's unread total for the game view.

A channel is the sender plus the recipients (any subset of the powers; ``ALL`` is public
press). Reading is always one range read of the caller's inbox or of one channel
(``PressStore``), so it costs what it returns. Nobody outside a channel reads it: a
player reads only its own inbox and channels it is a member of; observers, the creator
and the operator read the public channel only.

Limits (docs/api.md "Press"): 30 messages per power per minute (fixed window, counted
on the power's ledger with the same conditional write as the message: 429
``RATE_LIMITED`` with ``Retry-After``); a power may open at most 20 channels.
Sending marks the channel read for the sender up to its own message.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from functions.errors import ChannelNotFound, PressDisabled, RateLimited, TooManyChannels
from functions.ports import (
    ChannelRecord,
    Clock,
    GameRecord,
    GameStore,
    MessageRecord,
    PowerChats,
    PowerPress,
    PressNotice,
    PressStore,
)
from functions.usecases.game import (
    DIPLOMACY,
    game_map,
    iso,
    kind_name,
    load,
    load_active,
    parse_iso,
    retrying,
)
from functions.usecases.players import Actor, require_player
from functions.usecases.press.press_rules import (
    PUBLIC,
    check_may_send,
    clean_text,
    is_anonymous,
    parse_channel,
    recipients,
)

MESSAGE = "MESSAGE"
RATE_LIMIT = 30  # messages per power per window
RATE_WINDOW_SECONDS = 60
MAX_OPENED_CHANNELS = 20  # channels one power may open in one game
MAX_READ = 200


def has_press(game: GameRecord) -> bool:
    """Press is Diplomacy's: other game kinds (backgammon) have none."""
    return kind_name(game) == DIPLOMACY


class Sent(NamedTuple):
    """What a sender is told of a message once it is stored."""

    message_id: str
    channel: str
    seq: int
    sent_at: str


# --- send ----------------------------------------------------------------------------------


def send_message(
    store: GameStore,
    press: PressStore,
    clock: Clock,
    game_id: str,
    actor: Actor,
    to: str | Sequence[str],
    text: str,
    *,
    client_timestamp: str | None = None,
    dedupe_key: str | None = None,
    chats: PowerChats | None = None,
) -> Sent:
    """Send ``text`` from the caller's power; ``dedupe_key`` makes a repeat return the first answer."""
    sender = require_player(actor)
    body = clean_text(text)

    def attempt() -> Sent:
        game = load_active(store, game_id)
        if not has_press(game):
            raise PressDisabled("this game has no press")
        powers = sorted(game_map(game.variant).power_ids)
        channel, members = recipients(to, sender, powers)
        check_may_send(game, sender, channel)
        if dedupe_key is not None and (prior := press.applied(game_id, dedupe_key)) is not None:
            return Sent(**prior)
        existing = press.channel(game_id, channel)
        ledgers = press.ledgers(game_id, members)
        now = clock.now()
        expected = {p: ledger.version for p, ledger in ledgers.items()}
        _count_against_rate(ledgers[sender], now.timestamp())
        if existing is None:
            _count_against_channel_cap(ledgers[sender])
        seq = (existing.last_seq if existing else 0) + 1
        message = MessageRecord(
            message_id=secrets.token_hex(8), channel=channel, seq=seq, sender=sender, members=members,
            text=body, sent_at=iso(now), phase=game.phase, client_timestamp=client_timestamp,
        )
        for power, ledger in ledgers.items():
            ledger.inbox_seq += 1
            marks = ledger.channels.setdefault(channel, {"last": 0, "read": 0})
            marks["last"] = seq
            if power == sender:
                marks["read"] = seq
        record = existing or ChannelRecord(channel, members, opened_by=sender, opened_at=iso(now))
        sent = Sent(message.message_id, channel, seq, message.sent_at)
        press.commit_message(
            game_id, message=message, channel=record._replace(last_seq=seq, last=message),
            expected_last_seq=existing.last_seq if existing else 0,
            ledgers=[(ledgers[p], expected[p]) for p in members],
            notices=notices_for(game, message, chats), dedupe_key=dedupe_key, result=sent._asdict(),
        )
        return sent

    return retrying(attempt)


def _count_against_rate(ledger: PowerPress, now: float) -> None:
    window = int(now) // RATE_WINDOW_SECONDS * RATE_WINDOW_SECONDS
    if ledger.rate_window != window:
        ledger.rate_window, ledger.rate_count = window, 0
    if ledger.rate_count >= RATE_LIMIT:
        wait = max(1, math.ceil(window + RATE_WINDOW_SECONDS - now))
        raise RateLimited(
            f"at most {RATE_LIMIT} messages per {RATE_WINDOW_SECONDS} s; retry in {wait} s", retry_after=wait
        )
    ledger.rate_count += 1


def _count_against_channel_cap(ledger: PowerPress) -> None:
    if ledger.opened >= MAX_OPENED_CHANNELS:
        raise TooManyChannels(f"a power may open at most {MAX_OPENED_CHANNELS} channels in a game")
    ledger.opened += 1


def notices_for(game: GameRecord, message: MessageRecord, chats: PowerChats | None) -> list[PressNotice]:
    """The game's targets learn that a message was sent in a channel (the text only when public);
    each recipient's linked chats get the message itself."""
    base = f"{game.game_id}:press:{message.channel}:{message.seq}"
    public = message.channel == PUBLIC
    notice: dict[str, Any] = {"channel": message.channel, "seq": message.seq, "phase": message.phase}
    if public:
        notice.update({"from": message.sender, "text": message.text})
    found = [PressNotice(MESSAGE, base, notice)]
    for power in message.members:
        if power == message.sender or chats is None:
            continue
        for chat in chats.chats_of(game.game_id, power, linked_since=_joined(game, power)):
            payload = {**notice, "from": message.sender, "text": message.text, "to": power}
            target = {"type": "telegram", "chat_id": chat}
            found.append(PressNotice(MESSAGE, f"{base}:{power}:{chat}", payload, target))
    return found


def _joined(game: GameRecord, power: str) -> float:
    """When the seat's current player joined (epoch s): chats linked before belong to someone else."""
    joined = (game.players.get(power) or {}).get("joined_at")
    return parse_iso(str(joined)).timestamp() if joined else 0.0


# --- read ----------------------------------------------------------------------------------


def message_view(game: GameRecord, message: MessageRecord, cursor: int) -> dict[str, Any]:
    """One message as a member sees it: powers only, never a seat's identity."""
    view: dict[str, Any] = {
        "message_id": message.message_id,
        "channel": message.channel,
        "seq": message.seq,
        "from": message.sender,
        "to": PUBLIC if message.channel == PUBLIC else [p for p in message.members if p != message.sender],
        "members": list(message.members),
        "text": message.text,
        "sent_at": message.sent_at,
        "phase": message.phase,
        "cursor": cursor,
    }
    if message.client_timestamp and not is_anonymous(game):  # a client clock can betray a time zone
        view["client_timestamp"] = message.client_timestamp
    return view


def _reader(actor: Actor) -> str | None:
    return actor.power if actor.kind == "player" else None


def _member_channel(game: GameRecord, channel: str, power: str | None) -> str:
    if not has_press(game):
        raise ChannelNotFound("this game has no press")
    name, members = parse_channel(channel, sorted(game_map(game.variant).power_ids))
    if name != PUBLIC and (power is None or power not in members):
        raise ChannelNotFound(f"no channel {channel!r} among yours")
    return name


def read_messages(
    store: GameStore, press: PressStore, game_id: str, actor: Actor, *,
    after: int = 0, channel: str | None = None, limit: int = 50,
) -> dict[str, Any]:
    """The caller's messages after a cursor, oldest first; ``next_after`` is the next cursor.

    Without ``channel`` the cursor is the caller's inbox position; with it, the channel's seq.
    Observers and the creator read the public channel.
    """
    game = load(store, game_id)
    power = _reader(actor)
    limit = max(1, min(limit, MAX_READ))
    if not has_press(game):
        return {"messages": [], "next_after": after, "more": False}
    if channel is None and power is not None:
        entries = press.inbox(game_id, power, after, limit + 1)
        found = [(e.n, e.message) for e in entries]
    else:
        name = _member_channel(game, channel or PUBLIC, power)
        found = [(m.seq, m) for m in press.channel_messages(game_id, name, after, limit + 1)]
    page = found[:limit]
    return {
        "messages": [message_view(game, m, n) for n, m in page],
        "next_after": page[-1][0] if page else after,
        "more": len(found) > limit,
    }


def list_channels(store: GameStore, press: PressStore, game_id: str, actor: Actor) -> dict[str, Any]:
    """The caller's channels (members, last message, unread); observers: the public one."""
    game = load(store, game_id)
    power = _reader(actor)
    if not has_press(game):
        return {"channels": [], "unread_total": 0}
    ledger = press.ledger(game_id, power) if power else PowerPress(power="")
    names = sorted(ledger.channels) if power else [PUBLIC]
    out = []
    for record in press.channels(game_id, names):
        last = message_view(game, record.last, record.last_seq) if record.last else None
        out.append({
            "channel": record.channel, "members": list(record.members), "last_seq": record.last_seq,
            "read_upto": int((ledger.channels.get(record.channel) or {}).get("read", 0)),
            "unread": ledger.unread(record.channel), "last_message": last,
        })
    return {"channels": out, "unread_total": ledger.unread_total()}


def mark_read(
    store: GameStore, press: PressStore, game_id: str, actor: Actor, channel: str, upto: int
) -> dict[str, Any]:
    """Read marks only move forward and never past the channel's last message."""
    power = require_player(actor)
    game = load(store, game_id)
    name = _member_channel(game, channel, power)

    def attempt() -> dict[str, Any]:
        ledger = press.ledger(game_id, power)
        marks = ledger.channels.get(name)
        if marks is None:
            raise ChannelNotFound(f"no message in channel {name} yet")
        expected = ledger.version
        new = max(int(marks.get("read", 0)), min(int(upto), int(marks.get("last", 0))))
        if new != marks.get("read"):
            marks["read"] = new
            press.save_ledger(game_id, ledger, expected_version=expected)
        return {"channel": name, "read_upto": new, "unread": ledger.unread(name),
                "unread_total": ledger.unread_total()}

    return retrying(attempt)


def unread_total(press: PressStore, game: GameRecord, actor: Actor) -> int:
    """The caller's unread messages over all its channels (0 for anyone not seated): one read."""
    power = _reader(actor)
    return press.ledger(game.game_id, power).unread_total() if power and has_press(game) else 0


def with_unread(view: dict[str, Any], press: PressStore, game: GameRecord, actor: Actor,
                ledgers: Mapping[str, PowerPress] | None = None) -> dict[str, Any]:
    """The game view with the caller's unread total (games without press are left as they are).
    ``ledgers``: the powers' ledgers read with the game (``GameStore.load_with_press``), where a
    power without one has none yet; None asks the press store."""
    if not has_press(game):
        return view
    power = _reader(actor)
    if ledgers is None or not power:
        return {**view, "unread": unread_total(press, game, actor)}
    ledger = ledgers.get(power)
    return {**view, "unread": ledger.unread_total() if ledger is not None else 0}
