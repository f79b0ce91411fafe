"""A notice in words: the text a webhook, Discord or Telegram target receives, and the JSON
document a webhook is sent."""

from __future__ import annotations

from typing import Any

from functions.ports import (
    CHAT_PHOTO,
    CHAT_REPLY,
    DEADLINE_APPROACHING,
    GAME_ENDED,
    PHASE_PROCESSED,
    PLAYER_JOINED,
)
from functions.ports.notifications import OutboxMessage

TARGET_PARKED = "NOTIFY_TARGET_PARKED"


def render_text(message: OutboxMessage, public_url: str = "") -> str:
    """One short, plain-text line per kind; the same text for every chat platform.

    ``public_url`` is the API's base URL: a PHASE_PROCESSED notice links to the phase's
    resolution map (its payload's ``map`` path, issue 14) under it."""
    p = message.payload
    game = f"Game {message.game_id}" if message.game_id else "Convoy"
    if message.kind == PHASE_PROCESSED:
        text = f"{game}: {p.get('phase', '?')} has been adjudicated; now {p.get('next_phase', '?')}."
        if p.get("deadline"):
            text += f" Orders due by {p['deadline']}."
        if p.get("map"):
            text += f" Map: {public_url}{p['map']}"
        return text
    if message.kind == "PHASE_STARTED":
        text = f"{game} has started: {p.get('phase', '?')}."
        return text + (f" Orders due by {p['deadline']}." if p.get("deadline") else "")
    if message.kind == "DEADLINE_EXTENDED":
        return f"{game}: the deadline for {p.get('phase', '?')} moved to {p.get('deadline', '?')}."
    if message.kind == DEADLINE_APPROACHING:
        text = f"{game}: the deadline for {p.get('phase', '?')} is {p.get('deadline', 'soon')}."
        waiting = [str(power) for power in p.get("waiting_on") or []]
        return text + (f" Still waiting on: {', '.join(waiting)}." if waiting else "")
    if message.kind == GAME_ENDED:
        if p.get("summary"):  # written by functions/usecases/turns/lifecycle.py end_game
            return f"{game} is over: {p['summary']}."
        winner = p.get("winner")
        return f"{game} is over: {winner} wins." if winner else f"{game} is over."
    if message.kind == TARGET_PARKED:
        return (f"{game}: notifications to {p.get('target', 'a target')} failed {p.get('failures', '?')} "
                f"times in a row and are paused until {p.get('until', '?')}.")
    if message.kind == PLAYER_JOINED:
        return f"{game}: {p.get('power', 'a player')} has joined."
    if message.kind in (CHAT_REPLY, CHAT_PHOTO):
        return str(p.get("text", ""))
    if message.kind == "MESSAGE":  # press (functions/usecases/press/press.py): text only where it may go
        channel = p.get("channel", "?")
        if "text" not in p:
            return f"{game}: a message was sent in channel {channel}."
        where = "to everyone" if channel == "ALL" else f"in {channel}"
        return f"{game}, {p.get('from', '?')} {where}: {p['text']}"
    return f"{game}: {message.kind.replace('_', ' ').lower()}."


def webhook_document(message: OutboxMessage, text: str) -> dict[str, Any]:
    """The JSON body of a generic webhook (documented in docs/notifications.md)."""
    return {
        "id": message.dedupe_key,
        "kind": message.kind,
        "game_id": message.game_id,
        "payload": dict(message.payload),
        "text": text,
    }
