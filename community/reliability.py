"""A player's reliability, computed from a game's event log, never typed in (issue 34).

The events read are the ones the game store keeps today (``EVENT#<seq>`` items, written by
functions/usecases): nothing here adds a field to them.

- ``PLAYER_JOINED`` ``{power}``: a seat is taken; a *tenure* starts (keyed by the event's seq).
- ``SEAT_OPENED`` ``{power, reason}``: the tenure ends; reason ``left`` (the player left)
  or ``opened_by_creator`` (removed).
- ``CIVIL_DISORDER`` ``{power, missed}``: the tenure ends in civil disorder.
- ``NMR_EXTENSION`` ``{powers, deadline}``: the deadline of the current phase moved on for
  these late powers; their orders that phase, if they come, are late.
- ``PHASE_PROCESSED`` ``{phase, orders, nmr}``: a power owed orders that phase if it is in
  ``orders`` or in ``nmr`` (no orders by the deadline). Events written before issue 29 carry
  the list as ``resolution.nmr``; both are read.
- ``GAME_ENDED``: every open tenure ends with the game.

A phase a seated power owed is counted once: *on time* (orders by the first deadline),
*late* (given after an ``NMR_EXTENSION``) or *missed* (in ``nmr``). A creator cannot process
a phase early while a seated power still owes orders (functions/usecases/turns/fairness.py), so
``nmr`` means the deadline passed.

Events name powers, not accounts: the tenure's ``joined_seq`` is what the caller maps to
the account that took the seat (today the seat's ``user_id`` in the game record; the
wiring can add it to ``PLAYER_JOINED`` so the log alone says it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol


class Event(Protocol):
    """An event record as the game store keeps it (functions.ports.EventRecord)."""

    @property
    def seq(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def phase(self) -> str: ...
    @property
    def data(self) -> Mapping[str, Any]: ...


@dataclass(frozen=True)
class Tenure:
    """One player's time in one seat of one game, and how it ended."""

    power: str
    joined_seq: int
    owed: int = 0
    on_time: int = 0
    late: int = 0
    missed: int = 0
    ended: str = "playing"  # playing, finished, left, removed, civil_disorder, replaced


@dataclass(frozen=True)
class Reliability:
    """A player's record over tenures (one or many games)."""

    phases_owed: int = 0
    on_time: int = 0
    late: int = 0
    missed: int = 0
    civil_disorders: int = 0
    games_left: int = 0
    removed: int = 0
    seats: int = 0

    @property
    def on_time_share(self) -> float | None:
        """Share of the phases owed that were ordered before the deadline (None: no phase yet)."""
        return self.on_time / self.phases_owed if self.phases_owed else None

    def __add__(self, other: Reliability) -> Reliability:
        return Reliability(*(a + b for a, b in zip(_fields(self), _fields(other), strict=True)))


def _fields(r: Reliability) -> tuple[int, ...]:
    return (r.phases_owed, r.on_time, r.late, r.missed, r.civil_disorders, r.games_left, r.removed, r.seats)


_ENDINGS = {"left": "left", "opened_by_creator": "removed"}


def tenures(events: Iterable[Event]) -> list[Tenure]:
    """Every tenure of one game's events, in the order the seats were taken."""
    open_: dict[str, Tenure] = {}
    closed: list[Tenure] = []
    late: dict[str, set[str]] = {}  # phase -> powers extended there

    def close(power: str, how: str) -> None:
        if power in open_:
            closed.append(replace(open_.pop(power), ended=how))

    for event in sorted(events, key=lambda e: e.seq):
        data = event.data
        if event.type == "PLAYER_JOINED":
            close(str(data["power"]), "replaced")  # a seat is only retaken once freed: defensive
            open_[str(data["power"])] = Tenure(str(data["power"]), event.seq)
        elif event.type == "SEAT_OPENED":
            close(str(data["power"]), _ENDINGS.get(str(data.get("reason")), "removed"))
        elif event.type == "CIVIL_DISORDER":
            close(str(data["power"]), "civil_disorder")
        elif event.type == "NMR_EXTENSION":
            late.setdefault(event.phase, set()).update(str(p) for p in data.get("powers") or ())
        elif event.type == "PHASE_PROCESSED":
            _count_phase(open_, data, late.get(str(data.get("phase", event.phase)), set()))
        elif event.type == "GAME_ENDED":
            for power in sorted(open_):
                close(power, "finished")
    return sorted([*closed, *open_.values()], key=lambda t: t.joined_seq)


def _count_phase(open_: dict[str, Tenure], data: Mapping[str, Any], extended: set[str]) -> None:
    nmr = set(data.get("nmr") or (data.get("resolution") or {}).get("nmr") or ())
    ordered = set(data.get("orders") or {})
    for power, tenure in open_.items():
        if power in nmr:
            open_[power] = replace(tenure, owed=tenure.owed + 1, missed=tenure.missed + 1)
        elif power in ordered and power in extended:
            open_[power] = replace(tenure, owed=tenure.owed + 1, late=tenure.late + 1)
        elif power in ordered:
            open_[power] = replace(tenure, owed=tenure.owed + 1, on_time=tenure.on_time + 1)


def reliability(tenure: Tenure) -> Reliability:
    """One tenure as a record (add records up for a player's profile)."""
    return Reliability(
        phases_owed=tenure.owed, on_time=tenure.on_time, late=tenure.late, missed=tenure.missed,
        civil_disorders=int(tenure.ended == "civil_disorder"), games_left=int(tenure.ended == "left"),
        removed=int(tenure.ended == "removed"), seats=1,
    )


def by_player(events: Iterable[Event], holders: Mapping[int, str]) -> dict[str, Reliability]:
    """player -> record for one game, ``holders`` mapping each tenure's ``joined_seq`` to the
    account that took the seat (tenures of no known account, e.g. anonymous tokens, are left out)."""
    out: dict[str, Reliability] = {}
    for tenure in tenures(events):
        player = holders.get(tenure.joined_seq)
        if player is not None:
            out[player] = out.get(player, Reliability()) + reliability(tenure)
    return out
