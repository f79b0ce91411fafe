"""What the bridge answers to each client message (the table in daide_bridge/README.md).

One coroutine per first token. Each reads its whole message first (daide_bridge/syntax.py:
a message that does not read raises ``GrammarError`` and gets ``HUH`` with ``ERR`` at the
first offending token), then checks the connection's state (``REJ`` when the message does
not fit it), then calls Convoy's REST API. Seats and ``IAM`` follow daide_bridge/seats.py.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol, TypeVar

from daide_bridge.board import fits_standard, map_definition
from daide_bridge.grammar import (
    TO_CONVOY_POWER,
    TO_DAIDE_POWER,
    missing_message,
    now_message,
    sco_message,
    turn,
    unit_note,
)
from daide_bridge.messages import Message, Text
from daide_bridge.rest import ApiError, Convoy
from daide_bridge.seats import Seat, Seats
from daide_bridge.syntax import (
    Order,
    read_answer,
    read_bare,
    read_draw,
    read_iam,
    read_name,
    read_not,
    read_observer,
    read_submission,
    read_time,
)

log = logging.getLogger("daide_bridge")
T = TypeVar("T")
MAP_NAME = Text("STANDARD")
# engine/order-entry codes as DAIDE order notes (THX ... (note)); MBV = "order OK"
NOTES = {
    "NOT_ADJACENT": "FAR",
    "NO_SUCH_UNIT": "NSU",
    "NOT_YOUR_UNIT": "NYU",
    "NOTHING_TO_SUPPORT": "NSP",
    "CANNOT_SUPPORT": "NSP",
    "SUPPORT_SELF": "NSP",
    "NOTHING_TO_CONVOY": "NSF",
    "CANNOT_CONVOY": "NAS",
    "CANNOT_BE_CONVOYED": "NSA",
    "NO_CONVOY_ROUTE": "NSF",
    "WRONG_PHASE": "NRS",
    "NOT_DISLODGED": "NRN",
    "RETREAT_NOT_ALLOWED": "NVR",
    "NOT_A_HOME_CENTRE": "HSC",
    "NOT_OWNED": "YSC",
    "OCCUPIED": "ESC",
    "CANNOT_BUILD_HERE": "CST",  # "an attempt to build a fleet inland or an army at sea" (syntax, THX)
    "NO_BUILDS_LEFT": "NMB",
    "NO_DISBANDS_DUE": "NMR",
    "BAD_COAST": "CST",
    "COAST_REQUIRED": "CST",
    "MOVE_TO_SELF": "FAR",
    "TOO_MANY_BUILDS": "NMB",
    "TOO_MANY_DISBANDS": "NMR",
    "DUPLICATE_ORDER": "NRS",
    "GAME_OVER": "NRS",
    "STALE_PHASE": "NRS",
}


@dataclass
class Watcher:
    """What one Convoy game looked like when last polled (server.py polls; greet starts it)."""

    game_id: str
    phase: str | None = None
    ownership: dict[str, str] | None = None
    over: bool = False


class Hub(Protocol):
    """What a handler uses of the bridge (server.Bridge)."""

    @property
    def convoy(self) -> Convoy: ...
    @property
    def game_ids(self) -> list[str]: ...
    @property
    def seats(self) -> Seats: ...
    @property
    def joining(self) -> asyncio.Lock: ...
    @property
    def watchers(self) -> dict[str, Watcher]: ...
    async def api(self, call: Callable[..., T], *args: Any) -> T: ...


class Session(Protocol):
    """What a handler uses of a bot's connection (server.Session)."""

    host: str
    name: str
    version: str
    seat: Seat | None
    map_accepted: bool
    greeted: bool
    closed: bool

    @property
    def bridge(self) -> Hub: ...
    def send(self, message: Message) -> None: ...


Handler = Callable[[Session, Message], Awaitable[None]]


def greet(session: Session, view: dict[str, Any]) -> None:
    """HLO (power) (passcode) ((LVL 0)), then the centres and the position."""
    seat = session.seat
    assert seat is not None
    session.greeted = seat.greeted = True
    watcher = session.bridge.watchers[seat.game_id]
    if watcher.phase is None:  # the position the bot was shown: ORD follows for the phase after it
        watcher.phase, watcher.ownership = view["phase"], dict(view["ownership"])
    session.send(_hello(seat))
    session.send(sco_message(view["ownership"], map_centres()))
    session.send(now_message(view))


def _hello(seat: Seat) -> Message:
    return ("HLO", (TO_DAIDE_POWER[seat.power],), (seat.passcode,), (("LVL", 0),))


def map_centres() -> list[str]:
    import engine

    return sorted(engine.load_map("classical").supply_centers)


# --- joining ---------------------------------------------------------------------------------


async def _nme(session: Session, message: Message) -> None:
    """NME: a free seat of the first listed game that has one, joined over REST."""
    name, version = read_name(message)
    bridge = session.bridge
    async with bridge.joining:  # one join at a time: the per-host count cannot be raced
        if session.seat is not None or not bridge.seats.room_for(session.host):
            session.send(("REJ", message))
            return
        for game_id in bridge.game_ids:
            view = await bridge.api(bridge.convoy.view, game_id)
            if not fits_standard(view["variant"]):
                continue  # a variant DAIDE's standard tokens cannot name (board.fits_standard)
            if view.get("fog") is not None:
                # a fog game: DAIDE has no fog, and the bridge tells every seat one board (NOW, SCO,
                # ORD from the public view and history), which an observer of a fog game never sees
                continue
            try:
                joined = await bridge.api(bridge.convoy.join, game_id)
            except ApiError as error:
                if error.code in ("GAME_FULL", "POWER_TAKEN", "GAME_NOT_ACTIVE", "BAD_PASSWORD"):
                    continue
                raise
            session.seat = bridge.seats.seat(game_id, joined["power"], joined["token"], session, session.host)
            session.name, session.version = name, version
            log.info("%s %s plays %s in %s", name, version, joined["power"], game_id)
            session.send(("YES", message))
            session.send(("MAP", (MAP_NAME,)))
            return
    session.send(("REJ", message))


async def _iam(session: Session, message: Message) -> None:
    """IAM (power) (passcode): a bot whose connection broke takes its seat back, straight into
    the game (no MAP, no HLO: DAIDE Message Syntax, IAM); refused by seats.py's rules."""
    power, passcode = read_iam(message)
    bridge = session.bridge
    seat = None
    if session.seat is None:
        seat = bridge.seats.take_back(TO_CONVOY_POWER[power], passcode, session, session.host)
    if seat is None:
        session.send(("REJ", message))
        return
    session.seat = seat
    session.map_accepted = session.greeted = True
    log.info("IAM: %s in %s taken back from %s", seat.power, seat.game_id, session.host)
    session.send(("YES", message))


async def _obs(session: Session, message: Message) -> None:
    read_observer(message)
    session.send(("REJ", message))  # observers are not served: GET /games/{id} shows the game


async def _refuse(session: Session, message: Message) -> None:
    session.send(("REJ", message))


async def _map(session: Session, message: Message) -> None:
    read_bare(message)
    session.send(("MAP", (MAP_NAME,)))


async def _mdf(session: Session, message: Message) -> None:
    read_bare(message)
    session.send(map_definition())


async def _yes(session: Session, message: Message) -> None:
    if read_answer(message) != "MAP":
        return  # YES (SVE ...): nothing is saved here, nothing to do
    session.map_accepted = True
    seat = session.seat
    if seat is not None and not session.greeted:
        view = await session.bridge.api(session.bridge.convoy.view, seat.game_id)
        if not view.get("open_seats"):
            greet(session, view)


async def _rej(session: Session, message: Message) -> None:
    if read_answer(message) == "MAP":
        session.send(("OFF",))  # the bot cannot play this map
        session.closed = True


# --- playing ---------------------------------------------------------------------------------


def _playing(session: Session) -> Seat | None:
    """The seat of a bot that was greeted (or came back with IAM), else None."""
    return session.seat if session.greeted else None


async def _view(session: Session, seat: Seat) -> dict[str, Any]:
    return await session.bridge.api(session.bridge.convoy.view, seat.game_id, seat.token)


async def _hlo(session: Session, message: Message) -> None:
    read_bare(message)
    seat = _playing(session)
    session.send(("REJ", message) if seat is None else _hello(seat))


async def _now(session: Session, message: Message) -> None:
    read_bare(message)
    seat = _playing(session)
    session.send(("REJ", message) if seat is None else now_message(await _view(session, seat)))


async def _sco(session: Session, message: Message) -> None:
    read_bare(message)
    seat = _playing(session)
    if seat is None:
        session.send(("REJ", message))
        return
    session.send(sco_message((await _view(session, seat))["ownership"], map_centres()))


async def _sub(session: Session, message: Message) -> None:
    """SUB [(turn)] (order) ...: one THX (order) (note) per order, in order. REJ when the bot
    is not playing or names a turn other than the current one (DAIDE Message Syntax, SUB)."""
    submission = read_submission(message)
    seat = _playing(session)
    view = await _view(session, seat) if seat is not None else {}
    if seat is None or (submission.turn is not None and submission.turn != turn(view)):
        session.send(("REJ", message))
        return
    checked = {id(o): "NYU" if o.power != seat.power else unit_note(o.node, view) for o in submission.orders}
    mine = [o.text for o in submission.orders if checked[id(o)] is None]
    refused: dict[str, dict[str, Any]] = {}
    if mine:
        try:
            answer = await session.bridge.api(
                session.bridge.convoy.add_orders, seat.game_id, seat.token, mine, view["phase"]
            )
        except ApiError as error:
            refused = {t: {"code": error.code} for t in mine}
        else:
            refused = {r["order"]: r for r in answer.get("rejected") or []}
    for order in submission.orders:
        note = checked[id(order)] or _note(order, refused.get(order.text))
        session.send(("THX", order.node, (note,)))


def _note(order: Order, why: dict[str, Any] | None) -> str:
    """The THX note: MBV, or the note for Convoy's refusal. An MTO to a province the unit
    cannot reach is FAR (Convoy, reading ``A LVP - LON`` as a move that needs a convoy,
    says there is no convoy route; DAIDE's MTO is never a convoy: that is CTO)."""
    if why is None:
        return "MBV"
    code = str(why.get("engine_code") or why.get("code"))
    if code == "NO_CONVOY_ROUTE" and isinstance(order.node, tuple) and order.node[1:2] == ("MTO",):
        return "FAR"
    return NOTES.get(code, "NRS")


async def _mis(session: Session, message: Message) -> None:
    read_bare(message)
    seat = _playing(session)
    if seat is None:
        session.send(("REJ", message))
        return
    view = await _view(session, seat)
    session.send(missing_message(view, seat.power, list((view.get("orders") or {}).get(seat.power, []))))


async def _tme(session: Session, message: Message) -> None:
    """TME: seconds to the deadline. TME (seconds), a timer request, is refused (not kept)."""
    asked = read_time(message)
    seat = _playing(session)
    view = await _view(session, seat) if seat is not None and asked is None else {}
    deadline = view.get("deadline")
    if not deadline:
        session.send(("REJ", message))
        return
    left = datetime.fromisoformat(str(deadline).replace("Z", "+00:00")) - datetime.now(UTC)
    session.send(("TME", (max(0, min(8191, int(left.total_seconds()))),)))


async def _vote(session: Session, message: Message, draw: bool) -> None:
    seat = _playing(session)
    if seat is None:
        session.send(("REJ", message))
        return
    await session.bridge.api(session.bridge.convoy.vote_draw, seat.game_id, seat.token, draw)
    session.send(("YES", message))


async def _drw(session: Session, message: Message) -> None:
    """DRW: a draw vote. A partial draw (DRW (powers)) is refused: no PDA in HLO."""
    if read_draw(message):
        session.send(("REJ", message))
        return
    await _vote(session, message, True)


async def _not(session: Session, message: Message) -> None:
    """NOT (DRW) withdraws the vote; NOT (GOF) is acknowledged (Convoy processes at the
    deadline or when all have ordered); NOT (SUB ...) and NOT (TME ...) are refused."""
    command = read_not(message)
    if command == "DRW":
        await _vote(session, message, False)
    elif command == "GOF" and _playing(session) is not None:
        session.send(("YES", message))
    else:
        session.send(("REJ", message))


async def _gof(session: Session, message: Message) -> None:
    read_bare(message)
    session.send(("YES", message) if _playing(session) is not None else ("REJ", message))


async def _off(session: Session, message: Message) -> None:
    read_bare(message)
    session.closed = True  # the seat stays: the bot may come back with IAM


HANDLERS: dict[str, Handler] = {
    "NME": _nme,
    "IAM": _iam,
    "OBS": _obs,
    "MAP": _map,
    "MDF": _mdf,
    "YES": _yes,
    "REJ": _rej,
    "HLO": _hlo,
    "NOW": _now,
    "SCO": _sco,
    "SUB": _sub,
    "MIS": _mis,
    "TME": _tme,
    "DRW": _drw,
    "NOT": _not,
    "GOF": _gof,
    "OFF": _off,
    "HST": _refuse,
    "ADM": _refuse,
    "SVE": _refuse,
    "LOD": _refuse,
    "ORD": _refuse,
    "SMR": _refuse,
}
