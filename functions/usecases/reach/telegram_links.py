"""Linking Telegram to Convoy: one-time link codes for a seat (``/link CODE``), and the
account commands that link a chat to an account's seat (``/games``, ``/use``, issue 15).

Link codes: `issue_link_code` returns the code once; only its SHA-256 is stored,
it expires, and redeeming consumes it (one time).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from functions.ports.telegram import Seat, TelegramStore
from functions.usecases.players import Actor, require_player

if TYPE_CHECKING:  # the bot's cold import stays without the account use cases' imports
    from functions.usecases.accounts import AccountDirectory

LINK_CODE_TTL = timedelta(minutes=30)


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


def link_chat(
    argument: str, *, user_id: int, chat_id: int | str, store: TelegramStore, now: datetime,
    accounts: AccountDirectory | None,
) -> str:
    """``/link CODE``: bind this user and chat to the code's seat, and to its account if it has one."""
    if not argument:
        return "Usage: /link CODE"
    seat = store.redeem_link_code(hash_link_code(argument), now)
    if seat is None:
        return "That link code is unknown, used or expired. Ask the API for a new one."
    store.link_user(user_id, seat)
    store.link_chat(user_id, seat, chat_id)
    account = accounts.link_telegram(user_id, seat) if accounts is not None else None
    linked = f"Linked: you play {seat.power} in game {seat.game_id}."
    return f"{linked}\nThis chat is linked to your account too: see /games." if account else linked


NO_ACCOUNT = ("This chat is not linked to an account. Bind a seat to your account (join while signed "
              "in, or POST /me/seats), get a link code for it and send /link CODE here.")


def account_command(name: str, argument: str, user_id: int, chat_id: int | str, store: TelegramStore,
                    accounts: AccountDirectory | None) -> str:
    """``/games`` lists the linked account's games; ``/use GAME_ID`` plays its seat there from this chat."""
    if accounts is None:
        return NO_ACCOUNT
    if name == "games":
        listed = accounts.games_of(user_id)
        if listed is None:
            return NO_ACCOUNT
        return _games_text(listed)
    if not argument:
        return "Usage: /use GAME_ID (see /games)"
    try:
        seat = accounts.seat_in(user_id, argument.split()[0])
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
