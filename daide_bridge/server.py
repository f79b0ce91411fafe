"""The bridge's TCP server: DAIDE bots on one side, Convoy's REST API on the other.

One ``Session`` per connected bot (the Client-Server Protocol: IM, then an empty RM, then
DMs both ways until FM, EM or OFF) and one ``Watcher`` per Convoy game, which polls the
game's public view and, when a phase has been adjudicated, sends every seated bot of that
game the ORD results, SCO (when ownership changed) and NOW; when the game ends, SLO or DRW,
SMR and OFF. What each client message gets is in daide_bridge/handlers.py; who may hold
or take back a seat, in daide_bridge/seats.py. Seat tokens live in this process's memory
only.

Press: Convoy games here are played at DAIDE press level 0 (HLO ... ((LVL 0))): press
messages are answered HUH with ERR before the press token. The table of answers is in
daide_bridge/README.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from daide_bridge import wire
from daide_bridge.grammar import (
    TO_DAIDE_POWER,
    GrammarError,
    now_message,
    order_node,
    result_node,
    sco_message,
    turn,
)
from daide_bridge.handlers import HANDLERS, Handler, Watcher, greet, map_centres
from daide_bridge.messages import DaideSyntaxError, Message, Text, decode, encode
from daide_bridge.rest import ApiError, Convoy
from daide_bridge.seats import Seat, Seats
from daide_bridge.syntax import huh

log = logging.getLogger("daide_bridge")
T = TypeVar("T")
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
# TCP keepalive (the protocol asks for SO_KEEPALIVE): a peer that vanished is found after
# 30 s idle + 3 probes 10 s apart, so its seat is free for IAM about a minute later
KEEPALIVE = (("TCP_KEEPIDLE", 30), ("TCP_KEEPINTVL", 10), ("TCP_KEEPCNT", 3))


@dataclass(eq=False)  # a connection is itself: compared and hashed by identity
class Session:
    bridge: Bridge
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    host: str = ""  # the peer's address: seats per host are counted on it
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
            await self.bridge.forget(self)

    # --- answering --------------------------------------------------------------------------

    async def answer(self, message: Message) -> None:
        """The handler's answer; HUH with ERR before the first offending token when the
        message does not read (an unknown first token, press at level 0: ERR before it)."""
        head = message[0] if message else None
        handler = self.bridge.handlers.get(head) if isinstance(head, str) else None
        if handler is None or head in PRESS_TOKENS:
            self.send(huh(message, (0,)))
            return
        try:
            await handler(self, message)
        except GrammarError as error:
            self.send(huh(message, error.at))
        except ApiError as error:
            log.info("convoy refused %s: %s", head, error)
            self.send(("REJ", message))


@dataclass
class Bridge:
    """``seats_per_host``: how many seats one peer address may hold (the operator raises it
    to run several bots from one machine, or behind a proxy that hides the bots' addresses)."""

    convoy: Convoy
    game_ids: list[str]
    poll_seconds: float = 1.0
    seats_per_host: int = 1
    clock: Callable[[], float] = time.monotonic
    sessions: set[Session] = field(default_factory=set)
    watchers: dict[str, Watcher] = field(default_factory=dict)
    handlers: dict[str, Handler] = field(default_factory=lambda: dict(HANDLERS))
    seats: Seats = field(init=False)
    joining: asyncio.Lock = field(default_factory=asyncio.Lock)
    _server: asyncio.Server | None = None
    _poller: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        self.seats = Seats(self.clock, self.seats_per_host)
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
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)  # the protocol asks for it
            for option, value in KEEPALIVE:
                if hasattr(socket, option):  # Linux names; elsewhere the system's defaults
                    sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)
        peer = writer.get_extra_info("peername")
        session = Session(self, reader, writer, host=str(peer[0]) if peer else "")
        self.sessions.add(session)
        await session.run()

    async def forget(self, session: Session) -> None:
        """The connection is gone: its seat is free for IAM. A seat whose passcode was never
        sent (the game had not started) is given back to Convoy (POST /leave): no bot could
        ever come back to it."""
        self.sessions.discard(session)
        for seat in self.seats.release(session):
            try:
                await self.api(self.convoy.leave, seat.game_id, seat.token)
            except (ApiError, OSError) as error:
                log.warning("leaving %s of %s failed: %s", seat.power, seat.game_id, error)

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
                greet(session, view)
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
