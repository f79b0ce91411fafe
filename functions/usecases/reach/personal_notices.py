"""Who hears what, personally (issue 33 items 2 and 3): an outbox message of a game turned into
one ``Notice`` per account that should hear of it, each already worded. Mail and push render
the same notice (functions/usecases/reach/mail_notices.py, push_subscriptions.py); the player's
choices decide which (functions/usecases/notifications/notice_preferences.py).

Decided when the notice is delivered, against the game as it is then, not as it was when the
outbox item was written:

- a reminder goes only to accounts whose power *still* owes orders for that phase (one that
  submitted after the reminder was written hears nothing), and only while that phase runs;
- a turn result and game over go to every seated account;
- press goes to the channel's other members, batched (functions/usecases/reach/press_batches.py).

What a notice never holds: a pending order (no order is read here), press of a channel the
recipient is not in (a press notice is read from the recipient's own inbox), another seat's
identity (powers only, as everywhere; docs/accounts.md "Names and anonymous games").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from functions.ports import DEADLINE_APPROACHING, GAME_ENDED, PHASE_PROCESSED, GameRecord
from functions.ports.notifications import OutboxMessage
from functions.usecases.kinds import game_name
from functions.usecases.turns import missing_powers


class Notice(NamedTuple):
    """One thing to tell one account, worded once for mail and push."""

    user_id: str
    game_id: str
    power: str
    kind: str  # a notice_preferences.KINDS value
    dedupe_key: str  # the cause's (outbox message's) key: with the channel, "delivered once"
    subject: str
    lines: tuple[str, ...]
    link: str  # the game's page in the web client
    map_phase: str | None = None  # a turn result: the phase whose resolution map goes with it


def game_link(public_url: str, game_id: str) -> str:
    return f"{public_url}/#/games/{game_id}"


def seated_accounts(game: GameRecord, powers: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """(power, user id) of the seats held by an account, sorted; only ``powers`` when given."""
    found = []
    for power, player in sorted(game.players.items()):
        user_id = player.get("user_id")
        if user_id and (powers is None or power in powers):
            found.append((power, str(user_id)))
    return found


def notices_for(message: OutboxMessage, game: GameRecord, public_url: str) -> list[Notice]:
    """The personal notices ``message`` causes (press is batched elsewhere: none here)."""
    if message.kind == DEADLINE_APPROACHING:
        return _reminders(message, game, public_url)
    if message.kind == PHASE_PROCESSED:
        return _turn_results(message, game, public_url)
    if message.kind == GAME_ENDED:
        return _game_over(message, game, public_url)
    return []


def _notice(message: OutboxMessage, game: GameRecord, power: str, user_id: str, kind: str,
            subject: str, lines: Sequence[str], public_url: str, map_phase: str | None = None) -> Notice:
    return Notice(user_id, game.game_id, power, kind, message.dedupe_key, subject, tuple(lines),
                  game_link(public_url, game.game_id), map_phase)


def _reminders(message: OutboxMessage, game: GameRecord, public_url: str) -> list[Notice]:
    p: Mapping[str, Any] = message.payload
    phase = str(p.get("phase", ""))
    if game.status != "ACTIVE" or game.paused or game.phase != phase:
        return []  # the phase moved on (or stopped) before the notice went out
    owing = set(missing_powers(game)) & {str(power) for power in p.get("waiting_on") or []}
    name = game_name(game)
    found = []
    for power, user_id in seated_accounts(game, sorted(owing)):
        subject = f"Your orders are due: {name}, {phase}"
        due = p.get("deadline", "soon")
        lines = (f"You play {power} in {name}. Your orders for {phase} are due by {due}.",
                 "Orders not sent by then: your units hold (and a retreat disbands).")
        found.append(_notice(message, game, power, user_id, "reminder", subject, lines, public_url))
    return found


def _turn_results(message: OutboxMessage, game: GameRecord, public_url: str) -> list[Notice]:
    p = message.payload
    phase, following = str(p.get("phase", "?")), str(p.get("next_phase", "?"))
    name = game_name(game)
    due = f" Orders for {following} are due by {p['deadline']}." if p.get("deadline") else ""
    found = []
    for power, user_id in seated_accounts(game):
        subject = f"{name}: {phase} resolved"
        lines = (f"{phase} has been adjudicated in {name}; now {following}.{due}",
                 f"You play {power}. The resolution map is below.")
        found.append(_notice(message, game, power, user_id, "turn_result", subject, lines, public_url, phase))
    return found


def _game_over(message: OutboxMessage, game: GameRecord, public_url: str) -> list[Notice]:
    p = message.payload
    name = game_name(game)
    summary = str(p.get("summary") or (f"{p['winner']} wins" if p.get("winner") else "it has ended"))
    return [_notice(message, game, power, user_id, "game_over", f"{name} is over",
                    (f"{name} is over: {summary}.", f"You played {power}."), public_url)
            for power, user_id in seated_accounts(game)]
