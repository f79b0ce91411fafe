"""The Telegram bot: one update in, at most one answer out (through the outbox).

Commands (a leading ``/cmd@BotName`` also works):
- ``/link CODE``   bind this Telegram user to the seat the one-time code was issued for
- ``/orders ...``  submit the whole order set for the current phase; one order per line
                   (or separated by ``;``) — it replaces earlier orders, like the API
- ``/myorders``    this power's pending orders
- ``/status``      who has submitted for the current phase
- ``/last``        the last phase's resolution
- ``/map``         the board as a picture (Telegram ``sendPhoto``), with this power's own
                   pending orders drawn on it (nobody else's: issue 14's redaction rule)
- ``/msg POWER[,POWER] text``, ``/msg ALL text``   send press (issue 13); recipients' linked
                   chats get it through the outbox. Its dedupe key is the update id, so an
                   update handled twice (a retry after a failure) still sends once.
- ``/games``        the linked account's games (issue 15: a ``/link`` code for a seat bound
                   to an account links this Telegram user to the account), with seat, phase,
                   whether orders are due and unread press
- ``/use GAME_ID``  play the account's seat in that game from here on (orders, /map, /msg ...)
- ``/help``, ``/start``

Why the update id is claimed first: Telegram re-sends an update until it gets a 2xx,
so a slow answer could be processed twice. The claim is released again if handling
raises, so Telegram's retry gets a real second chance. (A process dying mid-update
keeps the claim: the player then simply repeats the command.)

Answers are written as OUTBOX items with dedupe key ``tg:<update_id>``, so the
notifier sends them with the same retries and DLQ as every other notice.

Linking (codes, /link, /games, /use) is in ``telegram_links``; the seat's commands are in
``telegram_commands``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from functions.ports.telegram import GameActions, ReplyOutbox, TelegramStore
from functions.usecases.reach.telegram_commands import PhotoAnswer, seat_command
from functions.usecases.reach.telegram_links import account_command, hash_link_code, link_chat

if TYPE_CHECKING:  # the bot's cold import stays without the account use cases' imports
    from functions.usecases.accounts import AccountDirectory

HELP_TEXT = (
    "Convoy bot commands:\n"
    "/link CODE - link this chat to your seat (get the code from the game API)\n"
    "/orders A PAR - BUR; F BRE - MAO - submit your orders (one per line or ';'-separated)\n"
    "/myorders - your pending orders\n"
    "/status - who has submitted\n"
    "/last - the last resolution\n"
    "/map - the board as a picture, with your pending orders\n"
    "/msg ENGLAND,GERMANY text - press to those powers (/msg ALL text: public press)\n"
    "/games - your account's games (link a seat of your account first)\n"
    "/use GAME_ID - play your account's seat in that game from this chat"
)


@dataclass(frozen=True)
class Command:
    name: str
    argument: str


@dataclass(frozen=True)
class UpdateOutcome:
    """What handling did: `handled`, `duplicate` or `ignored` (not a command message)."""

    status: str
    command: str | None = None


def parse_command(text: str) -> Command | None:
    """``/name@bot rest`` -> Command(name, rest); None when the text is not a command."""
    stripped = text.strip()
    if not stripped.startswith("/"):
        return None
    head, *rest = stripped.split(None, 1)  # the command ends at the first space or newline
    name = head[1:].split("@", 1)[0].lower()
    return Command(name=name, argument=rest[0].strip() if rest else "") if name else None


def handle_update(
    update: Mapping[str, Any],
    *,
    store: TelegramStore,
    games: GameActions,
    outbox: ReplyOutbox,
    now: datetime,
    accounts: AccountDirectory | None = None,
) -> UpdateOutcome:
    """Process one Telegram update exactly once (by update_id). ``accounts``: issue 15's
    account links (/games, /use); without it those commands say accounts are off."""
    update_id = update.get("update_id")
    if not isinstance(update_id, int):
        return UpdateOutcome("ignored")
    message = update.get("message")
    if not isinstance(message, Mapping):
        return UpdateOutcome("ignored")  # edits, callbacks, channel posts: not ours
    text = message.get("text")
    chat_id = (message.get("chat") or {}).get("id")
    user_id = (message.get("from") or {}).get("id")
    command = parse_command(text) if isinstance(text, str) else None
    if command is None or chat_id is None or not isinstance(user_id, int):
        return UpdateOutcome("ignored")
    if not store.claim_update(update_id):
        return UpdateOutcome("duplicate", command.name)
    try:
        if command.name in PRIVATE_ONLY and not _is_private(message, user_id):
            answer: str | PhotoAnswer = _refuse_in_group(command, store, now)
        else:
            answer = _answer(command, user_id=user_id, store=store, games=games, now=now,
                             chat_id=chat_id, update_id=update_id, accounts=accounts)
        if isinstance(answer, PhotoAnswer):
            picture = {"game_id": answer.seat.game_id, "power": answer.seat.power}
            outbox.reply_photo(chat_id, answer.caption, picture, f"tg:{update_id}")
        else:
            outbox.reply(chat_id, answer, f"tg:{update_id}")
    except Exception:
        store.release_update(update_id)
        raise
    return UpdateOutcome("handled", command.name)


# Commands whose answers show a power's pending orders (issue 11: never in a group chat,
# where other players read along). /orders echoes what was accepted, /map draws it; /msg
# sends press, which a group must not read either.
# /games and /use tell which power the account plays (secret in an anonymous game).
# /link (issue 28 item 5): a linked chat is told its seat and gets the seat's private press,
# so only the player's own private chat may be linked. A code sent in a group was read by
# everyone there: it is used up without linking anything, and the player asks for a new one.
PRIVATE_ONLY = frozenset({"link", "orders", "myorders", "map", "msg", "games", "use"})
PRIVATE_ONLY_TEXT = (
    "/{command} is for your eyes only, so it works only in a private chat with me: "
    "open a chat with the bot and send it there. Nothing was submitted or shown here."
)
GROUP_LINK_TEXT = (
    "/link works only in a private chat with me: a linked chat gets your seat's private press. "
    "Nothing was linked, and this code can no longer be used (everyone here has seen it): ask "
    "the game for a new one and send it to me privately."
)


def _is_private(message: Mapping[str, Any], user_id: int) -> bool:
    """A one-to-one chat with the sender: Telegram's ``private`` chat type (group,
    supergroup and channel chats are read by others), whose id is the sender's own, as
    Telegram numbers private chats."""
    chat = message.get("chat") or {}
    return chat.get("type") == "private" and str(chat.get("id")) == str(user_id)


def _refuse_in_group(command: Command, store: TelegramStore, now: datetime) -> str:
    """The answer to a private-only command sent elsewhere; a /link code is used up unlinked."""
    if command.name != "link":
        return PRIVATE_ONLY_TEXT.format(command=command.name)
    if command.argument:
        store.redeem_link_code(hash_link_code(command.argument), now)
    return GROUP_LINK_TEXT


def _answer(
    command: Command, *, user_id: int, store: TelegramStore, games: GameActions, now: datetime,
    chat_id: int | str, update_id: int, accounts: AccountDirectory | None = None,
) -> str | PhotoAnswer:
    if command.name in ("start", "help"):
        return HELP_TEXT
    if command.name == "link":
        return link_chat(command.argument, user_id=user_id, chat_id=chat_id, store=store, now=now,
                         accounts=accounts)
    if command.name in ("games", "use"):
        return account_command(command.name, command.argument, user_id, chat_id, store, accounts)
    handler = seat_command(command.name, games, update_id)
    if handler is None:
        return f"Unknown command /{command.name}.\n\n{HELP_TEXT}"
    seat = store.seat_of(user_id)
    if seat is None:
        return "This chat is not linked to a seat yet: /link CODE"
    try:
        return handler(seat, command.argument)
    except Exception as exc:
        code = getattr(exc, "code", None)
        if code:  # a domain refusal (GAME_NOT_ACTIVE, ...): tell the player, don't retry
            return f"Refused ({code}): {exc}"
        raise
