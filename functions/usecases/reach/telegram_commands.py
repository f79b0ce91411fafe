"""The Telegram bot's commands for a linked seat: /orders, /myorders, /status, /last, /map
and /msg, each the same use case as the REST API's (through ``GameActions``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from functions.ports.telegram import GameActions, Seat


@dataclass(frozen=True)
class PhotoAnswer:
    """An answer that is a picture of ``seat``'s board; drawn by the notifier at delivery."""

    seat: Seat
    caption: str


def split_orders(argument: str) -> list[str]:
    """Order lines from the text after /orders: newlines or ';' separate orders."""
    parts = argument.replace(";", "\n").splitlines()
    return [p.strip() for p in parts if p.strip()]


SeatCommand = Callable[[Seat, str], str | PhotoAnswer]


def seat_command(name: str, games: GameActions, update_id: int) -> SeatCommand | None:
    """The handler of command ``name`` for a linked seat; None for an unknown command. ``/msg``'s
    dedupe key is the update id, so an update handled twice still sends once."""
    handlers: dict[str, SeatCommand] = {
        "orders": lambda seat, arg: _submit(games, seat, arg),
        "myorders": lambda seat, _: _my_orders(games, seat),
        "status": lambda seat, _: _status(games, seat),
        "last": lambda seat, _: _last(games, seat),
        "map": lambda seat, _: _map(games, seat),
        "msg": lambda seat, arg: _press(games, seat, arg, f"tg:{update_id}"),
    }
    return handlers.get(name)


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
