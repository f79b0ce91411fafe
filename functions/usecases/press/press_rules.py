"""Press rules: who may talk, what a game's press setting allows, channels and clean text.

Pure decisions over a ``GameRecord`` (no storage): ``functions/usecases/press/press.py`` calls
them before it writes anything. Sources: issue 13; the rulebook's diplomacy period for
``press: rulebook`` (2023 rulebook, "Diplomacy phase": negotiation happens before orders
are written, i.e. during movement phases).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from functions.errors import (
    BadRecipients,
    MessageEmpty,
    MessageNotPrintable,
    MessageTooLong,
    PowerCannotTalk,
    PressClosed,
    PressDisabled,
    PrivatePressDisabled,
    ValidationFailed,
)
from functions.ports import GameRecord
from functions.usecases.game import DIPLOMACY, kind_name
from functions.usecases.players import active_powers

PUBLIC = "ALL"
PRESS_MODES = ("full", "public_only", "none", "rulebook")
MAX_TEXT = 4000
# Allowed format characters: joiners used inside emoji and Indic scripts. Bidi overrides
# (U+202A..U+202E, U+2066..U+2069) are refused: they make a message read differently than it is.
_ALLOWED_FORMAT = {"\u200c", "\u200d"}
_ALLOWED_CONTROL = {"\n", "\t"}


def may_talk(game: GameRecord, power: str) -> bool:
    """THE predicate for "this power may send press" (issue 13 §4): seated and active.

    "Active" is the roster's one definition (functions/usecases/players/roster.py): a seated survivor
    that is not a dummy. Civil disorder takes the player out of ``game.players`` (lifecycle,
    issue 12 item 5), so a power in civil disorder, a dummy, an open seat and an eliminated
    power cannot send; every press check reads only this function.
    """
    return power in active_powers(game)


def press_mode(game: GameRecord) -> str:
    return str(game.settings.get("press") or "full")


def is_anonymous(game: GameRecord) -> bool:
    return bool(game.settings.get("anonymous"))


def check_may_send(game: GameRecord, power: str, channel: str) -> None:
    """Refuse a send the game's press rules do not allow (409s), or a power that may not talk (403)."""
    mode = press_mode(game)
    if mode == "none":
        raise PressDisabled("this game has no press")
    if mode == "public_only" and channel != PUBLIC:
        raise PrivatePressDisabled('this game allows public press only: send "to": "ALL"')
    if mode == "rulebook" and str(game.state.get("phase_type", "")) != "MOVEMENT":
        raise PressClosed(f"press is closed in {game.phase}: it opens again with the next movement phase")
    if not may_talk(game, power):
        raise PowerCannotTalk(f"{power} is not an active, seated power")


def validate_mode(mode: str) -> str:
    if mode not in PRESS_MODES:
        raise ValidationFailed(f"press must be one of {', '.join(PRESS_MODES)}")
    return mode


def channel_name(members: Sequence[str], powers: Sequence[str]) -> str:
    """Members (sorted, comma-joined), or ``ALL`` when the channel holds every power."""
    unique = sorted(set(members))
    return PUBLIC if set(unique) == set(powers) else ",".join(unique)


def parse_channel(text: str, powers: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """A channel as written by a client (``ALL``, ``france,ENGLAND``): its name and members."""
    if text.strip().upper() == PUBLIC:
        return PUBLIC, tuple(sorted(powers))
    members = tuple(sorted({p.strip().upper() for p in text.split(",") if p.strip()}))
    unknown = [p for p in members if p not in powers]
    if not members or unknown:
        raise BadRecipients(f"unknown power(s) {', '.join(unknown) or '(none)'}; powers: {', '.join(powers)}")
    name = channel_name(members, powers)
    return name, (tuple(sorted(powers)) if name == PUBLIC else members)


def recipients(to: str | Sequence[str], sender: str, powers: Sequence[str]) -> tuple[str, tuple[str, ...]]:
    """The channel a send goes to: the sender plus the recipients (``"ALL"``: every power)."""
    if isinstance(to, str):
        if to.strip().upper() != PUBLIC:
            raise BadRecipients('"to" is a list of powers or the string "ALL"')
        return PUBLIC, tuple(sorted(powers))
    named = {p.strip().upper() for p in to}
    if PUBLIC in named:
        raise BadRecipients('public press is "to": "ALL", not a list holding ALL')
    unknown = sorted(named - set(powers))
    if unknown:
        raise BadRecipients(f"unknown power(s) {', '.join(unknown)}; powers: {', '.join(powers)}")
    if not named - {sender}:
        raise BadRecipients("name at least one power other than the sender")
    members = tuple(sorted(named | {sender}))
    name = channel_name(members, powers)
    return name, (tuple(sorted(powers)) if name == PUBLIC else members)


def clean_text(text: str) -> str:
    """Trimmed text of printable Unicode, at most 4,000 characters (newlines and tabs allowed)."""
    trimmed = text.strip()
    if not trimmed:
        raise MessageEmpty("the message is empty")
    if len(trimmed) > MAX_TEXT:
        raise MessageTooLong(f"the message has {len(trimmed)} characters; at most {MAX_TEXT}")
    for char in trimmed:
        category = unicodedata.category(char)
        if category in ("Cs", "Co", "Cn") or (category == "Cc" and char not in _ALLOWED_CONTROL) or (
            category == "Cf" and char not in _ALLOWED_FORMAT
        ):
            raise MessageNotPrintable(f"the message holds a non-printable character U+{ord(char):04X}")
    return trimmed


def has_press(game: GameRecord) -> bool:
    """Press is Diplomacy's: other game kinds (backgammon) have none."""
    return kind_name(game) == DIPLOMACY
