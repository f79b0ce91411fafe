"""Press (issue 13): sending a message to a channel, under its rate and channel limits, and
the notices it sends the recipients' linked chats. Reading (messages, channels, read marks,
the unread total) is in functions/usecases/press/reading.py.

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
from collections.abc import Sequence
from typing import Any, NamedTuple

from functions.errors import PressDisabled, RateLimited, TooManyChannels
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
    game_map,
    iso,
    load_active,
    parse_iso,
    retrying,
)
from functions.usecases.players import Actor, require_player
from functions.usecases.press.press_rules import (
    PUBLIC,
    check_may_send,
    clean_text,
    has_press,
    recipients,
)

MESSAGE = "MESSAGE"
RATE_LIMIT = 30  # messages per power per window
RATE_WINDOW_SECONDS = 60
MAX_OPENED_CHANNELS = 20  # channels one power may open in one game


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
