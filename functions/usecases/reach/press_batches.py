"""Press received while away, gathered into one mail (issue 33 item 2).

A message to a player who is not on the game's page (no live connection follows the game as
that power) opens a *batch* for (account, game), unless one is open: a conditional write, so
of many messages only the first opens it and queues one ``PRESS_BATCH`` message with a delay
(``PRESS_MAIL_DELAY_SECONDS``, default 10 minutes; SQS DelaySeconds). When it comes back the
batch is flushed: the power's messages sent since the batch opened that it has *still not
read* (a player who came back and read them gets nothing) go out as one mail and one push,
and the batch closes, so the next message opens the next one.

The texts come from the recipient's own inbox at flush time (``PressStore.inbox``): no press
text travels in the outbox item, the queue or the batch, and a mail can only hold messages
of channels the recipient is in. A push names who wrote, never what (push_subscriptions.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from functions.ports import GameRecord, MessageRecord, PressStore
from functions.ports.notifications import OutboxMessage
from functions.ports.reach import ConnectionStore, DelayedQueue, PressBatch, ReachStore
from functions.usecases.kinds import game_name
from functions.usecases.notifications import mode_of
from functions.usecases.press import PUBLIC
from functions.usecases.reach.live_updates import connection_actor
from functions.usecases.reach.personal_notices import Notice, game_link, seated_accounts

PRESS_BATCH = "PRESS_BATCH"
DEFAULT_DELAY_SECONDS = 600
MAX_MESSAGES = 50  # one mail lists at most the last 50 unread messages


def _message_of(press: PressStore, game_id: str, payload: dict[str, object]) -> MessageRecord | None:
    channel, seq = str(payload.get("channel", "")), int(str(payload.get("seq", 0)) or 0)
    found = press.channel_messages(game_id, channel, seq - 1, 1) if channel and seq else []
    return found[0] if found and found[0].seq == seq else None


def present_powers(game: GameRecord, connections: ConnectionStore | None, now: float,
                   operator_token: str | None = None) -> set[str]:
    """Powers someone follows live right now (on the game's page): they are not away.

    A closed socket's subscription stays in the table (there is no ``$disconnect``) until a post
    to it answers 410; for a message, reach_players posts its live frames first, so a recipient
    whose page closed met that 410 and was forgotten before this reads the table."""
    if connections is None:
        return set()
    present = set()
    for connection in connections.of_game(game.game_id, now):
        try:
            actor = connection_actor(game, connection, operator_token)
        except Exception:
            continue
        if actor.kind == "player" and actor.power:
            present.add(actor.power)
    return present


def open_batches(
    message: OutboxMessage, game: GameRecord, *, press: PressStore, store: ReachStore,
    queue: DelayedQueue, connections: ConnectionStore | None, now: float, delay: int = DEFAULT_DELAY_SECONDS,
    operator_token: str | None = None,
) -> list[str]:
    """Open a batch for each away recipient of a ``MESSAGE`` (the user ids whose batch this opened)."""
    record = _message_of(press, game.game_id, dict(message.payload))
    if record is None:
        return []
    members = set(record.members) if record.channel != PUBLIC else set(game.players)
    away = members - {record.sender} - present_powers(game, connections, now, operator_token)
    opened = []
    for power, user_id in seated_accounts(game, sorted(away)):
        if all(mode_of(store, user_id, channel, "press") == "never" for channel in ("mail", "push")):
            continue
        if store.open_press_batch(PressBatch(user_id, game.game_id, power, record.sent_at, int(now))):
            queue.send_later(OutboxMessage(f"{game.game_id}:pressbatch:{user_id}:{int(now)}", PRESS_BATCH,
                                           game.game_id, {"user_id": user_id}), delay)
            opened.append(user_id)
    return opened


def unread_since(press: PressStore, game_id: str, power: str, since: str) -> list[MessageRecord]:
    """The power's messages from others, sent at or after ``since``, still unread (oldest first)."""
    ledger = press.ledger(game_id, power)
    entries = press.inbox(game_id, power, max(0, ledger.inbox_seq - MAX_MESSAGES), MAX_MESSAGES)
    return [e.message for e in entries
            if e.message.sender != power and e.message.sent_at >= since
            and e.message.seq > int((ledger.channels.get(e.message.channel) or {}).get("read", 0))]


def batch_notice(message: OutboxMessage, game: GameRecord, *, press: PressStore, batch: PressBatch | None,
                 public_url: str) -> Notice | None:
    """The notice a flushed batch makes, or None (nothing unread, or the seat changed hands)."""
    if batch is None or (game.players.get(batch.power) or {}).get("user_id") != batch.user_id:
        return None
    unread = unread_since(press, game.game_id, batch.power, batch.since)
    if not unread:
        return None
    return Notice(batch.user_id, game.game_id, batch.power, "press", message.dedupe_key,
                  f"{game_name(game)}: {len(unread)} new message{'s' if len(unread) > 1 else ''}",
                  _lines(game, batch.power, unread), game_link(public_url, game.game_id))


def _lines(game: GameRecord, power: str, unread: Sequence[MessageRecord]) -> tuple[str, ...]:
    senders = ", ".join(sorted({m.sender for m in unread}))
    summary = (f"{len(unread)} new message{'s' if len(unread) > 1 else ''} for {power} "
               f"in {game_name(game)} from {senders}.")
    quoted = [f"{m.sender} ({'to everyone' if m.channel == PUBLIC else m.channel}), {m.phase}: {m.text}"
              for m in unread]
    return (summary, *quoted)
