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

Link codes: `issue_link_code` returns the code once; only its SHA-256 is stored,
it expires, and redeeming consumes it (one time).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from functions.ports.notifications import GameActions, ReplyOutbox, Seat, TelegramStore
from functions.usecases.players import Actor, require_player

if TYPE_CHECKING:  # the bot's cold import stays without the account use cases' imports
    from functions.usecases.accounts import AccountDirectory

LINK_CODE_TTL = timedelta(minutes=30)
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
class PhotoAnswer:
    """An answer that is a picture of ``seat``'s board; drawn by the notifier at delivery."""

    seat: Seat
    caption: str


@dataclass(frozen=True)
class UpdateOutcome:
    """What handling did: `handled`, `duplicate` or `ignored` (not a command message)."""

    status: str
    command: str | None = None


def hash_link_code(code: str) -> str:
    return hashlib.sha256(code.strip().upper().encode()).hexdigest()


def issue_link_code(
    seat: Seat, *, store: TelegramStore, now: datetime, ttl: timedelta = LINK_CODE_TTL
) -> str:
    """A fresh one-time code for `seat` (the API returns it to the authenticated player)."""
    code = secrets.token_hex(5).upper()  # 40 bits, short enough to type, expires in minutes
    store.save_link_code(hash_link_code(code), seat, now + ttl)
    return code


@dataclass(frozen=True)
class LinkCode:
    code: str
    expires_at: datetime


def link_code_for(
    actor: Actor, game_id: str, *, store: TelegramStore, now: datetime, ttl: timedelta = LINK_CODE_TTL
) -> LinkCode:
    """The API's use case: a seated player asks for a code to type as ``/link CODE`` in the bot."""
    power = require_player(actor)
    code = issue_link_code(Seat(game_id=game_id, power=power), store=store, now=now, ttl=ttl)
    return LinkCode(code=code, expires_at=now + ttl)


def parse_command(text: str) -> Command | None:
    """``/name@bot rest`` -> Command(name, rest); None when the text is not a command."""
    stripped = text.strip()
    if not stripped.startswith("/"):
        return None
    head, *rest = stripped.split(None, 1)  # the command ends at the first space or newline
    name = head[1:].split("@", 1)[0].lower()
    return Command(name=name, argument=rest[0].strip() if rest else "") if name else None


def split_orders(argument: str) -> list[str]:
    """Order lines from the text after /orders: newlines or ';' separate orders."""
    parts = argument.replace(";", "\n").splitlines()
    return [p.strip() for p in parts if p.strip()]


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
        if not command.argument:
            return "Usage: /link CODE"
        seat = store.redeem_link_code(hash_link_code(command.argument), now)
        if seat is None:
            return "That link code is unknown, used or expired. Ask the API for a new one."
        store.link_user(user_id, seat)
        store.link_chat(user_id, seat, chat_id)
        account = accounts.link_telegram(user_id, seat) if accounts is not None else None
        linked = f"Linked: you play {seat.power} in game {seat.game_id}."
        return f"{linked}\nThis chat is linked to your account too: see /games." if account else linked
    if command.name in ("games", "use"):
        return _account_command(command, user_id, chat_id, store, accounts)
    handlers: dict[str, Callable[[Seat, str], str | PhotoAnswer]] = {
        "orders": lambda seat, arg: _submit(games, seat, arg),
        "myorders": lambda seat, _: _my_orders(games, seat),
        "status": lambda seat, _: _status(games, seat),
        "last": lambda seat, _: _last(games, seat),
        "map": lambda seat, _: _map(games, seat),
        "msg": lambda seat, arg: _press(games, seat, arg, f"tg:{update_id}"),
    }
    handler = handlers.get(command.name)
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


NO_ACCOUNT = ("This chat is not linked to an account. Bind a seat to your account (join while signed "
              "in, or POST /me/seats), get a link code for it and send /link CODE here.")


def _account_command(command: Command, user_id: int, chat_id: int | str, store: TelegramStore,
                     accounts: AccountDirectory | None) -> str:
    if accounts is None:
        return NO_ACCOUNT
    if command.name == "games":
        listed = accounts.games_of(user_id)
        if listed is None:
            return NO_ACCOUNT
        return _games_text(listed)
    if not command.argument:
        return "Usage: /use GAME_ID (see /games)"
    try:
        seat = accounts.seat_in(user_id, command.argument.split()[0])
    except Exception as exc:
        if getattr(exc, "code", None) == "GAME_NOT_FOUND":
            return "No such game."
        raise
    if seat is None:
        return "Your account holds no seat in that game (see /games)."
    store.link_user(user_id, seat)
    store.link_chat(user_id, seat, chat_id)
    return f"Now playing {seat.power} in game {seat.game_id} from this chat."


def _games_text(listed: list[dict[str, Any]]) -> str:
    if not listed:
        return "Your account has no games yet."
    lines = ["Your games:"]
    for game in listed:
        seat = game["power"] or "no seat"
        waiting = game.get("stage") == "waiting for players"  # /me/games (issue 32)
        due = "waiting for players" if waiting else "orders due" if game["orders_due"] else "no orders due"
        unread = f", {game['unread_press']} unread" if game["unread_press"] else ""
        creator = ", you created it" if game["is_creator"] else ""
        lines.append(f"  {game['game_id']} {game['name']}: {seat}, {game['phase']}, {due}{unread}{creator}"
                     f" ({game['status'].lower()})")
    lines.append("/use GAME_ID plays a seat from this chat.")
    return "\n".join(lines)


def _submit(games: GameActions, seat: Seat, argument: str) -> str:
    orders = split_orders(argument)
    if not orders:
        return "Usage: /orders A PAR - BUR; F BRE - MAO"
    outcome = games.submit_orders(seat, orders)
    lines = [f"{seat.power}, {outcome.phase}: {len(outcome.accepted)} order(s) accepted."]
    lines += [f"  ok  {o}" for o in outcome.accepted]
    lines += [f"  NO  {o}: {why}" for o, why in outcome.rejected]
    return "\n".join(lines)


def _press(games: GameActions, seat: Seat, argument: str, dedupe_key: str) -> str:
    """``/msg ENGLAND,GERMANY text`` or ``/msg ALL text``."""
    head, _, text = argument.strip().partition(" ")
    if not head or not text.strip():
        return "Usage: /msg ENGLAND,GERMANY text  (or /msg ALL text)"
    to: str | list[str] = "ALL" if head.upper() == "ALL" else [p for p in head.split(",") if p]
    channel, seq = games.send_message(seat, to, text, dedupe_key)
    return f"Sent to {channel} (#{seq})."


def _my_orders(games: GameActions, seat: Seat) -> str:
    phase, orders = games.my_orders(seat)
    if not orders:
        return f"{seat.power}, {phase}: no orders submitted."
    return "\n".join([f"{seat.power}, {phase}:"] + [f"  {o}" for o in orders])


def _status(games: GameActions, seat: Seat) -> str:
    phase, submitted = games.orders_status(seat)
    lines = [f"{phase}:"] + [
        f"  {p}: {'submitted' if done else 'waiting'}" for p, done in sorted(submitted.items())
    ]
    return "\n".join(lines)


def _last(games: GameActions, seat: Seat) -> str:
    results = list(games.last_resolution(seat))
    return (
        "\n".join(["Last resolution:"] + [f"  {r}" for r in results])
        if results
        else "Nothing adjudicated yet."
    )


def _map(games: GameActions, seat: Seat) -> PhotoAnswer:
    phase, orders = games.my_orders(seat)  # also refuses a seat whose game is gone
    mine = f"your {len(orders)} pending order(s)" if orders else "no orders from you yet"
    return PhotoAnswer(seat, f"Game {seat.game_id}, {phase}: {seat.power}, {mine}.")
