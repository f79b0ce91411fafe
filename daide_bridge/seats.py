"""The seats the bridge holds for DAIDE bots, and who may take one back with ``IAM``.

A bot is seated by ``NME`` (the bridge joins Convoy over REST and keeps the seat token in
memory). The seat's ``HLO`` tells the bot a passcode; a bot whose connection broke comes
back with ``IAM (power) (passcode)``. That is the only way into a seat without a REST
token, so it is guarded (issue 28: passcodes 1..8000, unlimited tries, a seat taken while
its bot was still playing):

- **The passcode is a random number, not the REST token.** ``IAM`` carries the passcode as
  one DAIDE integer token ("DAIDE Message Syntax": ``passcode = number``; the Client-Server
  Protocol: integers are 14-bit, -8192..8191), and bots store and send back exactly that
  number, so a 43-character seat token cannot travel in it without breaking every bot.
  The passcode is drawn by ``secrets`` from 1..8191 (positive: bots and servers treat it so),
  different for every seat, and told only in that seat's ``HLO``.
- **Only a seat whose bot is gone can be taken.** While a connection holds the seat, every
  ``IAM`` for it is refused, whatever the passcode (dead connections are found by TCP
  keepalive within about a minute: server.py).
- **Tries are limited per seat, whoever makes them.** A wrong passcode counts against every
  free seat of that power; after ``FREE_TRIES`` wrong ones the seat refuses every ``IAM`` for
  ``LOCK_SECONDS`` × 2^(tries - ``FREE_TRIES``): at most 14 guesses in a day and 23 in a
  year, so guessing succeeds with probability ≤ 23/8191 (0.28 %) in a year. A locked seat
  also refuses its own bot until the lock ends (logged for the operator): a seat is never
  handed over for a guess.
- **The answer never says why.** A wrong passcode, a held seat, a locked seat and a seat
  whose passcode was never sent all get the same ``REJ (IAM ...)``, and a refusal counts a
  try only where the passcode was the question (a free, unlocked, greeted seat).
- **One seat per connection, and per host** (``per_host``, 1 unless the operator allows
  more: ``--seats-per-host``): a host is the peer address of the connection that took or
  took back the seat, so one client cannot take a game's seven seats by opening seven
  connections.

Pure (a clock is passed in); the server keeps one ``Seats`` per bridge.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("daide_bridge")
PASSCODES = range(1, 8192)  # DAIDE integers are 14-bit; the positive ones
FREE_TRIES = 3
LOCK_SECONDS = 30.0
_MAX_DOUBLINGS = 40  # 30 s × 2^40: far beyond any game, and no float overflow


@dataclass(eq=False)
class Seat:
    game_id: str
    power: str  # Convoy's name: FRANCE
    token: str  # the REST seat token: this process's memory only
    passcode: int
    host: str  # the peer address that holds it, or held it last
    holder: object | None = None  # the connection that holds it now
    greeted: bool = False  # its HLO (with the passcode) was sent
    wrong_tries: int = 0
    locked_until: float = 0.0


@dataclass
class Seats:
    clock: Callable[[], float]
    per_host: int = 1
    all: list[Seat] = field(default_factory=list)

    def new_passcode(self) -> int:
        taken = {s.passcode for s in self.all}
        while True:
            passcode = PASSCODES.start + secrets.randbelow(len(PASSCODES))
            if passcode not in taken:
                return passcode

    def room_for(self, host: str, besides: Seat | None = None) -> bool:
        """Whether ``host`` may hold one more seat."""
        return sum(1 for s in self.all if s.host == host and s is not besides) < self.per_host

    def seat(self, game_id: str, power: str, token: str, holder: object, host: str) -> Seat:
        """A seat just joined over REST for the connection ``holder`` from ``host``."""
        taken = Seat(game_id, power, token, self.new_passcode(), host, holder)
        self.all.append(taken)
        return taken

    def release(self, holder: object) -> list[Seat]:
        """The connection ``holder`` is gone: its seat is free for IAM. Seats whose passcode
        was never sent are dropped and returned (no bot can ever come back to them)."""
        dropped = [s for s in self.all if s.holder is holder and not s.greeted]
        for held in self.all:
            if held.holder is holder:
                held.holder = None
        self.all = [s for s in self.all if s not in dropped]
        return dropped

    def take_back(self, power: str, passcode: int, holder: object, host: str) -> Seat | None:
        """IAM: the free seat of ``power`` (Convoy's name) whose passcode this is, or None."""
        now = self.clock()
        open_to_guess = [
            s for s in self.all
            if s.power == power and s.greeted and s.holder is None and s.locked_until <= now
        ]
        for seat in open_to_guess:
            if secrets.compare_digest(str(seat.passcode), str(passcode)) and self.room_for(host, seat):
                seat.holder, seat.host = holder, host
                return seat
        if not any(secrets.compare_digest(str(s.passcode), str(passcode)) for s in open_to_guess):
            for seat in open_to_guess:
                self._wrong(seat, now)
        return None

    def _wrong(self, seat: Seat, now: float) -> None:
        seat.wrong_tries += 1
        if seat.wrong_tries >= FREE_TRIES:
            doublings = min(seat.wrong_tries - FREE_TRIES, _MAX_DOUBLINGS)
            seat.locked_until = now + LOCK_SECONDS * 2**doublings
            log.warning(
                "IAM for %s in %s: %d wrong passcodes, locked for %.0f s",
                seat.power, seat.game_id, seat.wrong_tries, seat.locked_until - now,
            )
