"""Reading press (issue 13): the caller's messages and channels, read marks, and the caller's
unread total for the game view.

Reading is always one range read of the caller's inbox or of one channel (``PressStore``),
so it costs what it returns. Nobody outside a channel reads it: a player reads only its own
inbox and channels it is a member of; observers, the creator and the operator read the
public channel only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from functions.errors import ChannelNotFound
from functions.ports import GameRecord, GameStore, MessageRecord, PowerPress, PressStore
from functions.usecases.game import game_map, load, retrying
from functions.usecases.players import Actor, require_player
from functions.usecases.press.press_rules import PUBLIC, has_press, is_anonymous, parse_channel

MAX_READ = 200


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
