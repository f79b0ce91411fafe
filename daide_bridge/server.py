"""The bridge's TCP server: DAIDE bots on one side, Convoy's REST API on the other.

One ``Session`` per connected bot (the Client-Server Protocol: IM, then an empty RM, then
DMs both ways until FM, EM or OFF) and one ``Watcher`` per Convoy game, which polls the
game's public view and, when a phase has been adjudicated, sends every seated bot of that
game the ORD results, SCO (when ownership changed) and NOW; when the game ends, SLO or DRW,
SMR and OFF. A bot is given a seat by ``POST /games/{id}/join`` (any free power, in the
first listed game that has one) and the seat token lives in this process's memory only,
with the HLO passcode that lets the bot come back with IAM.

Press: Convoy games here are played at DAIDE press level 0 (HLO ... ((LVL 0))): press
messages are answered HUH with ERR before the press token. What the bridge answers to
each client message is in daide_bridge/README.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from daide_bridge import wire
from daide_bridge.board import fits_standard, map_definition
from daide_bridge.grammar import (
    TO_CONVOY_POWER,
    TO_DAIDE_POWER,
    GrammarError,
    missing_message,
    now_message,
    order_node,
    order_text,
    result_node,
    sco_message,
    turn,
)
from daide_bridge.messages import DaideSyntaxError, Message, Node, Text, decode, encode
from daide_bridge.rest import ApiError, Convoy

log = logging.getLogger("daide_bridge")
T = TypeVar("T")
MAP_NAME = Text("STANDARD")
PRESS_TOKENS = frozenset(
    {
        "SND",
        "PRP",
        "PCE",
        "ALY",
        "DMZ",
        "XDO",
        "FRM",
        "TRY",
        "INS",
        "QRY",
        "SUG",
        "THK",
        "FCT",
        "HOW",
        "WHT",
        "WHY",
        "IDK",
        "SRY",
        "YDO",
        "XOY",
        "ORR",
        "AND",
    }
)
_WRONG_KIND: dict[int, wire.ErrorCode] = {
    wire.Kind.IM: wire.ErrorCode.MORE_THAN_ONE_IM,
    wire.Kind.RM: wire.ErrorCode.RM_FROM_CLIENT,
}
IM_TIMEOUT = 30.0  # the protocol's initial message timer
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
    "CANNOT_BUILD_HERE": "NSC",
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
class Seat:
    game_id: str
    power: str  # Convoy's name: FRANCE
    token: str
    passcode: int


@dataclass(eq=False)  # a connection is itself: compared and hashed by identity
class Session:
    bridge: Bridge
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    name: str = ""
    version: str = ""
    seat: Seat | None = None
    map_accepted: bool = False
    greeted: bool = False
    closed: bool = False

    # --- sending ----------------------------------------------------------------------------

    def send(self, message: Message) -> None:
        if not self.closed:
            self.writer.write(wire.encode_frame(wire.Frame(wire.Kind.DM, encode(message))))

    def _fail(self, code: wire.ErrorCode) -> None:
        if not self.closed:
            self.writer.write(wire.encode_frame(wire.error_message(code)))
        self.closed = True

    async def close(self) -> None:
        self.closed = True
        with contextlib.suppress(ConnectionError, OSError):
            self.writer.close()
            await self.writer.wait_closed()

    # --- the connection ---------------------------------------------------------------------

    async def _frame(self, timeout: float | None = None) -> wire.Frame | None:
        try:
            header = await asyncio.wait_for(self.reader.readexactly(wire.HEADER.size), timeout)
            kind, length = wire.decode_header(header)
            return wire.Frame(kind, await self.reader.readexactly(length))
        except (asyncio.IncompleteReadError, ConnectionError):
            return None

    async def run(self) -> None:
        try:
            try:
                first = await self._frame(IM_TIMEOUT)
            except TimeoutError:
                self._fail(wire.ErrorCode.IM_TIMER_POPPED)
                return
            if first is None:
                return
            refused = wire.check_initial(first)
            if refused is not None:
                self._fail(refused)
                return
            self.writer.write(wire.encode_frame(wire.Frame(wire.Kind.RM)))  # the standard map: no RM tokens
            while not self.closed:
                frame = await self._frame()
                if frame is None or frame.kind in (wire.Kind.FM, wire.Kind.EM):
                    return
                if frame.kind != wire.Kind.DM:
                    self._fail(_WRONG_KIND.get(frame.kind, wire.ErrorCode.UNKNOWN_MESSAGE))
                    return
                try:
                    message = decode(frame.payload)
                except DaideSyntaxError:
                    self._fail(wire.ErrorCode.INVALID_TOKEN)
                    return
                await self.answer(message)
                await self.writer.drain()
        finally:
            await self.close()
            self.bridge.sessions.discard(self)

    # --- answering --------------------------------------------------------------------------

    async def answer(self, message: Message) -> None:
        head = message[0] if message else None
        handler = self.bridge.handlers.get(str(head)) if isinstance(head, str) else None
        if isinstance(head, str) and head in PRESS_TOKENS:
            self.send(("HUH", ("ERR", *message)))  # press level 0: no press at all
            return
        if handler is None:
            self.send(("HUH", ("ERR", *message)))
            return
        try:
            await handler(self, message)
        except GrammarError:
            self.send(("HUH", ("ERR", *message)))
        except ApiError as error:
            log.info("convoy refused %s: %s", head, error)
            self.send(("REJ", message))


Handler = Callable[[Session, Message], Any]


@dataclass
class Watcher:
    """What one Convoy game looked like when last polled."""

    game_id: str
    phase: str | None = None
    ownership: dict[str, str] | None = None
    over: bool = False


@dataclass
class Bridge:
    convoy: Convoy
    game_ids: list[str]
    poll_seconds: float = 1.0
    sessions: set[Session] = field(default_factory=set)
    seats: dict[tuple[str, str], Seat] = field(default_factory=dict)
    watchers: dict[str, Watcher] = field(default_factory=dict)
    handlers: dict[str, Handler] = field(default_factory=dict)
    _server: asyncio.Server | None = None
    _poller: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        self.handlers.update(
            {
                "NME": _nme,
                "IAM": _iam,
                "OBS": _refuse,
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
        )
        self.watchers = {g: Watcher(g) for g in self.game_ids}

    async def api(self, call: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(call, *args)

    # --- lifecycle --------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 16713) -> int:
        self._server = await asyncio.start_server(self._connected, host, port, backlog=10)
        self._poller = asyncio.create_task(self._poll_forever())
        return int(self._server.sockets[0].getsockname()[1])

    async def stop(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
        for session in list(self.sessions):
            await session.close()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        if sock is not None:
            import socket

            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)  # the protocol asks for it
        session = Session(self, reader, writer)
        self.sessions.add(session)
        await session.run()

    # --- watching the games -----------------------------------------------------------------

    async def _poll_forever(self) -> None:
        while True:
            for watcher in self.watchers.values():
                try:
                    await self.poll(watcher)
                except (ApiError, OSError) as error:
                    log.warning("polling %s failed: %s", watcher.game_id, error)
            await asyncio.sleep(self.poll_seconds)

    def seated(self, game_id: str) -> list[Session]:
        return [s for s in self.sessions if s.seat is not None and s.seat.game_id == game_id and not s.closed]

    async def poll(self, watcher: Watcher) -> None:
        if watcher.over or not self.seated(watcher.game_id):
            return
        view = await self.api(self.convoy.view, watcher.game_id)
        for session in self.seated(watcher.game_id):
            if session.map_accepted and not session.greeted and not view.get("open_seats"):
                _greet(session, view)
        if watcher.phase is None:
            watcher.phase, watcher.ownership = view["phase"], dict(view["ownership"])
            return
        if view["phase"] != watcher.phase or view["status"] != "ACTIVE":
            await self._phase_done(watcher, view)

    async def _phase_done(self, watcher: Watcher, view: dict[str, Any]) -> None:
        history = await self.api(self.convoy.history, watcher.game_id)
        # every phase adjudicated from the one last seen up to the one this view shows (a fast
        # game may have moved on twice; the history, read after the view, may already hold
        # the viewed phase too: it is reported at the next poll, with the view that follows it)
        starts = [i for i, h in enumerate(history) if h["phase"] == watcher.phase]
        results: list[Message] = []
        for phase in history[starts[-1] :] if starts else []:
            if phase["phase"] == view["phase"]:
                break
            results.extend(ord_messages(phase))
        ownership_changed = dict(view["ownership"]) != watcher.ownership
        watcher.phase, watcher.ownership = view["phase"], dict(view["ownership"])
        for session in self.seated(watcher.game_id):
            if not session.greeted:
                continue
            for message in results:
                session.send(message)
            if ownership_changed:
                session.send(sco_message(view["ownership"], map_centres()))
            if view["status"] == "ACTIVE":
                session.send(now_message(view))
        if view["status"] != "ACTIVE":
            watcher.over = True
            await self._game_over(watcher, view)

    async def _game_over(self, watcher: Watcher, view: dict[str, Any]) -> None:
        result = view.get("result") or {}
        winners = [TO_DAIDE_POWER[w] for w in result.get("winners") or [] if w in TO_DAIDE_POWER]
        ending: Message = (
            ("SLO", winners[0]) if result.get("kind") in ("solo", "concession") and winners else ("DRW",)
        )
        names = {s.seat.power: (s.name, s.version) for s in self.seated(watcher.game_id) if s.seat}
        counts: dict[str, int] = {}
        for owner in view["ownership"].values():
            counts[owner] = counts.get(owner, 0) + 1
        summary = (
            "SMR",
            turn(view),
            *(
                (
                    TO_DAIDE_POWER[p],
                    (Text(names.get(p, ("Convoy player", ""))[0] or "Convoy player"),),
                    (Text(names.get(p, ("", "1"))[1] or "1"),),
                    counts.get(p, 0),
                )
                for p in sorted(TO_DAIDE_POWER)
            ),
        )
        for session in self.seated(watcher.game_id):
            session.send(ending)
            session.send(summary)
            session.send(("OFF",))


def map_centres() -> list[str]:
    import engine

    return sorted(engine.load_map("classical").supply_centers)


def ord_messages(phase: dict[str, Any]) -> list[Message]:
    """ORD (turn) (order) (result) for every order of an adjudicated phase (history entry)."""
    state = phase["state"]
    owners = {u["location"].split("/")[0]: (u["power"], u["kind"]) for u in state["units"]}
    for d in state.get("dislodged") or ():
        owners[d["unit"]["location"].split("/")[0]] = (d["unit"]["power"], d["unit"]["kind"])
    out: list[Message] = []
    for result in phase["resolution"]["results"]:
        try:
            out.append(("ORD", turn(state), order_node(result["order"], owners), result_node(result)))
        except (GrammarError, KeyError) as error:
            log.warning("no DAIDE form for %s: %s", result.get("order_str"), error)
    return out


def _greet(session: Session, view: dict[str, Any]) -> None:
    """HLO (power) (passcode) ((LVL 0)), then the centres and the position."""
    assert session.seat is not None
    session.greeted = True
    watcher = session.bridge.watchers[session.seat.game_id]
    if watcher.phase is None:  # the position the bot was shown: ORD follows for the phase after it
        watcher.phase, watcher.ownership = view["phase"], dict(view["ownership"])
    session.send(("HLO", (TO_DAIDE_POWER[session.seat.power],), (session.seat.passcode,), (("LVL", 0),)))
    session.send(sco_message(view["ownership"], map_centres()))
    session.send(now_message(view))


# --- the handlers, one per client message ------------------------------------------------------


def _texts(message: Message) -> list[str]:
    out = []
    for node in message[1:]:
        if not (isinstance(node, tuple) and len(node) == 1 and isinstance(node[0], Text)):
            raise GrammarError(f"expected ('text'), not {node!r}")
        out.append(node[0].value)
    return out


async def _nme(session: Session, message: Message) -> None:
    name, version = _texts(message) if len(message) == 3 else ("", "")
    if not name:
        raise GrammarError("NME ('name') ('version')")
    if session.seat is not None:
        session.send(("REJ", message))
        return
    bridge = session.bridge
    for game_id in bridge.game_ids:
        if not fits_standard((await bridge.api(bridge.convoy.view, game_id))["variant"]):
            continue  # a variant DAIDE's standard tokens cannot name (board.fits_standard)
        try:
            joined = await bridge.api(bridge.convoy.join, game_id)
        except ApiError as error:
            if error.code in ("GAME_FULL", "POWER_TAKEN", "GAME_NOT_ACTIVE", "BAD_PASSWORD"):
                continue
            raise
        seat = Seat(game_id, joined["power"], joined["token"], secrets.randbelow(8000) + 1)
        bridge.seats[(game_id, seat.power)] = seat
        session.seat, session.name, session.version = seat, name, version
        log.info("%s %s plays %s in %s", name, version, seat.power, game_id)
        session.send(("YES", message))
        session.send(("MAP", (MAP_NAME,)))
        return
    session.send(("REJ", message))


async def _iam(session: Session, message: Message) -> None:
    """IAM (power) (passcode): a bot that lost its connection takes its seat back."""
    match message:
        case ("IAM", (str() as power,), (int() as passcode,)) if power in TO_CONVOY_POWER:
            pass
        case _:
            raise GrammarError("IAM (power) (passcode)")
    for (_, seat_power), seat in session.bridge.seats.items():
        if seat_power == TO_CONVOY_POWER[power] and seat.passcode == passcode and session.seat is None:
            session.seat = seat
            session.send(("YES", message))
            session.send(("MAP", (MAP_NAME,)))
            return
    session.send(("REJ", message))


async def _refuse(session: Session, message: Message) -> None:
    session.send(("REJ", message))


async def _map(session: Session, message: Message) -> None:
    session.send(("MAP", (MAP_NAME,)))


async def _mdf(session: Session, message: Message) -> None:
    session.send(map_definition())


async def _yes(session: Session, message: Message) -> None:
    if len(message) == 2 and isinstance(message[1], tuple) and message[1][:1] == ("MAP",):
        session.map_accepted = True
        if session.seat is not None:
            view = await session.bridge.api(session.bridge.convoy.view, session.seat.game_id)
            if not view.get("open_seats") and not session.greeted:
                _greet(session, view)
        return
    raise GrammarError("YES (MAP ('name')) is the only YES a client sends here")


async def _rej(session: Session, message: Message) -> None:
    if len(message) == 2 and isinstance(message[1], tuple) and message[1][:1] == ("MAP",):
        session.send(("OFF",))  # the bot cannot play this map
        session.closed = True
        return
    raise GrammarError("REJ (MAP ('name')) is the only REJ a client sends here")


def _require_game(session: Session) -> Seat | None:
    if session.seat is None or not session.greeted:
        return None
    return session.seat


async def _hlo(session: Session, message: Message) -> None:
    seat = _require_game(session)
    if seat is None:
        session.send(("REJ", message))
        return
    session.send(("HLO", (TO_DAIDE_POWER[seat.power],), (seat.passcode,), (("LVL", 0),)))


async def _view(session: Session, seat: Seat) -> dict[str, Any]:
    return await session.bridge.api(session.bridge.convoy.view, seat.game_id, seat.token)


async def _now(session: Session, message: Message) -> None:
    seat = _require_game(session)
    if seat is None:
        session.send(("REJ", message))
        return
    session.send(now_message(await _view(session, seat)))


async def _sco(session: Session, message: Message) -> None:
    seat = _require_game(session)
    if seat is None:
        session.send(("REJ", message))
        return
    session.send(sco_message((await _view(session, seat))["ownership"], map_centres()))


async def _sub(session: Session, message: Message) -> None:
    seat = _require_game(session)
    if seat is None or len(message) < 2:
        session.send(("REJ", message))
        return
    texts: list[str | None] = []  # None: another power's unit, never sent to Convoy (NYU)
    for order in message[1:]:
        power, text = order_text(order)
        texts.append(text if power == seat.power else None)
    mine = [t for t in texts if t is not None]
    refused: dict[str, dict[str, Any]] = {}
    if mine:
        view = await _view(session, seat)
        try:
            answer = await session.bridge.api(
                session.bridge.convoy.add_orders, seat.game_id, seat.token, mine, view["phase"]
            )
        except ApiError as error:
            refused = {t: {"code": error.code} for t in mine}
        else:
            refused = {r["order"]: r for r in answer.get("rejected") or []}
    for order, sent in zip(message[1:], texts, strict=True):
        why = {"code": "NOT_YOUR_UNIT"} if sent is None else refused.get(sent)
        note = "MBV" if why is None else NOTES.get(str(why.get("engine_code") or why.get("code")), "NRS")
        session.send(("THX", order, (note,)))


async def _mis(session: Session, message: Message) -> None:
    seat = _require_game(session)
    if seat is None:
        session.send(("REJ", message))
        return
    view = await _view(session, seat)
    session.send(missing_message(view, seat.power, list((view.get("orders") or {}).get(seat.power, []))))


async def _tme(session: Session, message: Message) -> None:
    seat = _require_game(session)
    view = await _view(session, seat) if seat is not None else {}
    deadline = view.get("deadline")
    if seat is None or not deadline:
        session.send(("REJ", message))
        return
    left = datetime.fromisoformat(str(deadline).replace("Z", "+00:00")) - datetime.now(UTC)
    session.send(("TME", (max(0, min(8191, int(left.total_seconds()))),)))


async def _drw(session: Session, message: Message, draw: bool = True) -> None:
    seat = _require_game(session)
    if seat is None:
        session.send(("REJ", message))
        return
    await session.bridge.api(session.bridge.convoy.vote_draw, seat.game_id, seat.token, draw)
    session.send(("YES", message))


async def _not(session: Session, message: Message) -> None:
    inner: Node = message[1] if len(message) == 2 else ()
    if isinstance(inner, tuple) and inner == ("DRW",):
        await _drw(session, message, draw=False)
        return
    if isinstance(inner, tuple) and inner == ("GOF",):
        session.send(("YES", message))
        return
    raise GrammarError("NOT (DRW) or NOT (GOF)")


async def _gof(session: Session, message: Message) -> None:
    session.send(("YES", message))  # Convoy processes at the deadline or when every power has ordered


async def _off(session: Session, message: Message) -> None:
    session.closed = True  # the seat stays: the bot may come back with IAM
