"""Engine value types: locations, units, orders, results and the game state.

Everything here is a frozen, hashable value. Nothing in this module knows about
maps, text or JSON: invariants that need only the value itself (an army never
names a coast, provinces are upper case) are enforced on construction; those
that need the map (is this coast real?) belong to ``engine.validation``.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, ValuesView
from dataclasses import dataclass, field
from enum import StrEnum
from operator import attrgetter
from typing import TypeAlias

from engine.reasons import Explanation, ReasonCode
from engine.values import quick_init

COASTS = frozenset({"NC", "SC", "EC", "WC"})


class _Word(StrEnum):
    """A StrEnum hashed like the string it equals (Enum hashes its name instead, so
    ``"A" == ARMY`` held while their hashes differed), and in C, not Python."""

    __hash__ = str.__hash__


class UnitKind(_Word):
    """The two kinds of unit; the value is the letter used in order text."""

    ARMY = "A"
    FLEET = "F"




class Season(_Word):
    SPRING = "SPRING"
    FALL = "FALL"
    WINTER = "WINTER"


class PhaseType(_Word):
    MOVEMENT = "MOVEMENT"
    RETREAT = "RETREAT"
    ADJUSTMENT = "ADJUSTMENT"


class GameStatus(_Word):
    ACTIVE = "ACTIVE"
    COMPLETED = "COMPLETED"


class OrderType(_Word):
    HOLD = "HOLD"
    MOVE = "MOVE"
    SUPPORT_HOLD = "SUPPORT_HOLD"
    SUPPORT_MOVE = "SUPPORT_MOVE"
    CONVOY = "CONVOY"
    RETREAT = "RETREAT"
    DISBAND = "DISBAND"
    BUILD = "BUILD"
    WAIVE = "WAIVE"


# Enum members as module globals, for the rules' hot paths: reading a member as a class
# attribute (``ARMY``) goes through the Enum metaclass's ``__getattr__`` hook,
# many times slower than reading a global.
ARMY, FLEET = UnitKind.ARMY, UnitKind.FLEET
MOVEMENT, RETREAT, ADJUSTMENT = PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT
ACTIVE, COMPLETED = GameStatus.ACTIVE, GameStatus.COMPLETED
_LETTER = {ARMY: "A", FLEET: "F"}  # a kind's letter as a plain str (``str(kind)`` is a call)


class ResultCode(_Word):
    """What happened to one order.

    OK         the order did what it asked (move arrived, support given, hold kept,
               convoy carried its army, retreat made)
    BOUNCE     a move or retreat failed against other units
    CUT        a support was cut (or its supporter dislodged)
    VOID       the order was illegal or had nothing to act on, and was ignored
               (a support or convoy of a unit that was not ordered to match)
    NO_CONVOY  a convoyed move found no unbroken chain of convoying fleets
    DISLODGED  the ordered unit was dislodged (holds, convoys; moves that failed
               and were dislodged report BOUNCE with ``dislodged=True``)
    DISBAND    a unit was disbanded (ordered, or by civil disorder / no retreat)
    BUILD      a unit was built
    WAIVE      a build was waived
    """

    OK = "OK"
    BOUNCE = "BOUNCE"
    CUT = "CUT"
    VOID = "VOID"
    NO_CONVOY = "NO_CONVOY"
    DISLODGED = "DISLODGED"
    DISBAND = "DISBAND"
    BUILD = "BUILD"
    WAIVE = "WAIVE"


@dataclass(frozen=True, slots=True)
class Location:
    """A province, and for a fleet in a split-coast province, the coast it is on.

    Locations sort by province, the bare province before its coasts, so sorted
    output is stable even when both forms meet."""

    province: str
    coast: str | None = None

    def _key(self) -> tuple[str, str]:
        return (self.province, self.coast or "")

    def __hash__(self) -> int:
        # The province alone: equal locations share it, and the str caches its own hash,
        # so this is the cheapest consistent hash (coasts of one province collide, rarely met).
        return hash(self.province)

    def __lt__(self, other: Location) -> bool:
        return self._key() < other._key()

    def __le__(self, other: Location) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: Location) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: Location) -> bool:
        return self._key() >= other._key()

    def __post_init__(self) -> None:
        province, coast = self.province, self.coast
        if type(province) is not str or not province.isupper() or not province.isalnum():
            if not isinstance(province, str) or not province.strip():
                raise ValueError("a location needs a province")
            object.__setattr__(self, "province", province.strip().upper())
        if coast is not None and coast not in COASTS:
            normalized = coast.strip().upper() if isinstance(coast, str) else coast
            if normalized not in COASTS:
                raise ValueError(f"unknown coast {coast!r}: expected one of NC, SC, EC, WC")
            object.__setattr__(self, "coast", normalized)

    def __str__(self) -> str:
        return f"{self.province}/{self.coast}" if self.coast else self.province

    @property
    def bare(self) -> Location:
        """The same province without a coast."""
        return self if self.coast is None else Location(self.province)

    @staticmethod
    def parse(text: str) -> Location:
        """Read the canonical form ``PAR`` or ``SPA/SC`` (also the JSON encoding)."""
        province, _, coast = text.partition("/")
        return Location(province, coast or None)


@dataclass(frozen=True, order=True, slots=True)
class Unit:
    kind: UnitKind
    power: str
    location: Location
    # ``location.province``, kept as a plain attribute: the rules read it constantly.
    province: str = field(init=False, repr=False, compare=False)

    # The hash, computed once: units live in frozensets rebuilt every phase.
    _hash: int = field(init=False, repr=False, compare=False)
    # (kind letter, power, location text): the stored form's three strings, made once.
    # They sort as the unit does (a coast's "/" sorts before any letter or digit), so the
    # stored units are sorted in C (``unit_order``) and written without building strings.
    row: tuple[str, str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.kind) is not UnitKind:
            object.__setattr__(self, "kind", UnitKind(self.kind))
        if not self.power.isupper():
            object.__setattr__(self, "power", self.power.upper())
        if self.kind is ARMY and self.location.coast is not None:
            raise ValueError(f"an army has no coast: {self.location}")
        location = self.location
        object.__setattr__(self, "province", location.province)
        object.__setattr__(self, "_hash", hash((self.kind, self.power, location)))
        text = location.province if location.coast is None else f"{location.province}/{location.coast}"
        object.__setattr__(self, "row", (_LETTER[self.kind], self.power, text))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type[Unit], tuple[UnitKind, str, Location]]:
        """Pickle and copy by the constructor: str hashes differ between processes."""
        return (Unit, (self.kind, self.power, self.location))

    def __str__(self) -> str:
        return f"{self.kind.value} {self.location}"


# The sort key of ``Unit``'s order (kind, power, location) as plain strings, so a sort
# compares in C instead of through the generated comparison methods.
unit_order = attrgetter("row")


@dataclass(frozen=True, slots=True)
class DislodgedUnit:
    """A unit dislodged in the movement phase just played, with what its retreat needs.

    ``attacker_origin`` is the province the dislodging unit came from, or None when
    that attack was convoyed (then the origin is not forbidden, 2023 rules 4.A.5).
    ``retreats`` is the full legal retreat set; empty means it must disband.
    """

    unit: Unit
    attacker_origin: str | None = None
    retreats: tuple[Location, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "retreats", tuple(sorted(self.retreats)))


# --- Orders --------------------------------------------------------------------------------
# ``kind`` fields record the unit letter the player wrote (None when absent). The
# adjudicator never trusts them: the DATC (4.C.1/4.C.2) ignores the letter and uses the
# unit actually on the board.


@quick_init
@dataclass(frozen=True, slots=True)
class Hold:
    power: str
    unit: Location
    kind: UnitKind | None = None

    order_type = OrderType.HOLD


@quick_init
@dataclass(frozen=True, slots=True)
class Move:
    power: str
    unit: Location
    dest: Location
    via_convoy: bool = False
    kind: UnitKind | None = None

    order_type = OrderType.MOVE


@quick_init
@dataclass(frozen=True, slots=True)
class SupportHold:
    power: str
    unit: Location
    target: Location
    kind: UnitKind | None = None
    target_kind: UnitKind | None = None

    order_type = OrderType.SUPPORT_HOLD


@quick_init
@dataclass(frozen=True, slots=True)
class SupportMove:
    power: str
    unit: Location
    origin: Location
    dest: Location
    kind: UnitKind | None = None
    target_kind: UnitKind | None = None

    order_type = OrderType.SUPPORT_MOVE


@quick_init
@dataclass(frozen=True, slots=True)
class Convoy:
    power: str
    unit: Location
    origin: Location
    dest: Location
    kind: UnitKind | None = None
    target_kind: UnitKind | None = None

    order_type = OrderType.CONVOY


@dataclass(frozen=True, slots=True)
class Retreat:
    power: str
    unit: Location
    dest: Location
    kind: UnitKind | None = None

    order_type = OrderType.RETREAT


@dataclass(frozen=True, slots=True)
class Disband:
    """Disband a dislodged unit (retreat phase) or remove a unit (adjustment phase)."""

    power: str
    unit: Location
    kind: UnitKind | None = None

    order_type = OrderType.DISBAND


@dataclass(frozen=True, slots=True)
class Build:
    power: str
    location: Location
    kind: UnitKind

    order_type = OrderType.BUILD


@dataclass(frozen=True, slots=True)
class Waive:
    power: str

    order_type = OrderType.WAIVE


Order: TypeAlias = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
ORDER_CLASSES: tuple[type, ...] = (
    Hold, Move, SupportHold, SupportMove, Convoy, Retreat, Disband, Build, Waive,
)

MOVEMENT_ORDERS = (Hold, Move, SupportHold, SupportMove, Convoy)
RETREAT_ORDERS = (Retreat, Disband)
ADJUSTMENT_ORDERS = (Build, Disband, Waive)
ORDERS_BY_PHASE: dict[PhaseType, tuple[type, ...]] = {
    MOVEMENT: MOVEMENT_ORDERS,
    RETREAT: RETREAT_ORDERS,
    ADJUSTMENT: ADJUSTMENT_ORDERS,
}


# --- Results -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an order ended as it did, for players: a code from the closed set of
    ``engine.reasons`` (``PREVENTED``, ``LOST_HEAD_TO_HEAD``, ``CUT_BY``, ``ILLEGAL``...),
    the provinces of the units responsible (sorted), and a short human ``detail`` (for
    VOID: the validation code and its sentence)."""

    code: ReasonCode
    units: tuple[str, ...] = ()
    detail: str = ""


@dataclass(frozen=True, slots=True)
class OrderResult:
    order: Order
    result: ResultCode
    dislodged: bool = False
    retreat_options: tuple[Location, ...] = ()
    reason: Reason | None = None
    explanation: Explanation | None = None


class NoteKind(_Word):
    """What the phase sequence did that no order asked for."""

    DISBANDED = "DISBANDED"  # a dislodged unit with nowhere to retreat was disbanded at once
    PHASE_SKIPPED = "PHASE_SKIPPED"  # a retreat or adjustment phase in which nobody could order


@dataclass(frozen=True, slots=True)
class PhaseNote:
    """One thing players are told happened between phases: ``phase`` names the phase it
    belongs to (the retreat or winter phase that was not opened), ``powers`` and ``units``
    ("A MUN") whom it concerns, ``text`` says it in English."""

    kind: NoteKind
    phase: str
    powers: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class Resolution:
    results: tuple[OrderResult, ...] = ()
    notes: tuple[PhaseNote, ...] = ()


# --- State ---------------------------------------------------------------------------------


def _upper_already(items: Mapping[str, str]) -> bool:
    """Are every key and value an ASCII str in upper case (so normalising changes nothing)?
    Four C calls for the whole mapping instead of four per centre."""
    try:
        keys, owners = "".join(items), "".join(items.values())
    except TypeError:  # not all str
        return False
    return keys.isascii() and owners.isascii() and keys.isupper() and owners.isupper()


def _sorted(data: dict[str, str]) -> dict[str, str]:
    """``data`` with its keys in order (a stored mapping usually is: then it is kept)."""
    keys = sorted(data)
    return data if keys == list(data) else {k: data[k] for k in keys}


class Ownership(Mapping[str, str]):
    """An immutable, hashable supply-centre -> power mapping (keys kept sorted)."""

    __slots__ = ("_dict", "_hash")

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        if (type(items) is dict or isinstance(items, Mapping)) and _upper_already(items):
            data = dict(items)  # stored or engine-made: ids are upper case already
        else:
            pairs = items.items() if isinstance(items, Mapping) else items
            data = {str(k).upper(): str(v).upper() for k, v in pairs}
        self._dict: dict[str, str] = _sorted(data)
        self._hash: int | None = None

    @classmethod
    def normalized(cls, data: dict[str, str]) -> Ownership:
        """From a dict the engine built with upper-case ids already (no re-normalising); the
        dict becomes the mapping's own, so the caller must not change it afterwards."""
        out = cls.__new__(cls)
        out._dict = _sorted(data)
        out._hash = None
        return out

    def __getitem__(self, key: str) -> str:
        return self._dict[key]

    # Delegate the views to the dict: Mapping's generic ones go through __getitem__.
    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
        return self._dict.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._dict

    def items(self) -> ItemsView[str, str]:
        return self._dict.items()

    def keys(self) -> KeysView[str]:
        return self._dict.keys()

    def values(self) -> ValuesView[str]:
        return self._dict.values()

    def __iter__(self) -> Iterator[str]:
        return iter(self._dict)

    def __len__(self) -> int:
        return len(self._dict)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self._dict.items()))
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Ownership):
            return self._dict == other._dict
        if isinstance(other, Mapping):
            return self._dict == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"Ownership({self._dict!r})"


SEASON_LETTER = {Season.SPRING: "S", Season.FALL: "F", Season.WINTER: "W"}
PHASE_LETTER = {MOVEMENT: "M", RETREAT: "R", ADJUSTMENT: "A"}


@dataclass(frozen=True, slots=True)
class GameState:
    """An immutable snapshot of the board between phases.

    ``contested`` holds the standoff provinces of the movement phase just played
    (only meaningful in a retreat phase). ``winner`` is set when ``status`` is
    COMPLETED by a solo victory.
    """

    year: int
    season: Season
    phase_type: PhaseType
    units: frozenset[Unit] = frozenset()
    ownership: Ownership = field(default_factory=Ownership)
    dislodged: tuple[DislodgedUnit, ...] = ()
    contested: frozenset[str] = frozenset()
    status: GameStatus = ACTIVE
    winner: str | None = None
    # Derived tables, built once (not compared, not serialized).
    units_by_province: dict[str, Unit] = field(init=False, repr=False, compare=False)
    _unit_counts: dict[str, int] | None = field(init=False, repr=False, compare=False)
    _center_counts: dict[str, int] | None = field(init=False, repr=False, compare=False)
    _fleets: frozenset[str] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if type(self.season) is not Season:
            object.__setattr__(self, "season", Season(self.season))
        if type(self.phase_type) is not PhaseType:
            object.__setattr__(self, "phase_type", PhaseType(self.phase_type))
        if type(self.status) is not GameStatus:
            object.__setattr__(self, "status", GameStatus(self.status))
        if type(self.units) is not frozenset:
            object.__setattr__(self, "units", frozenset(self.units))
        if not isinstance(self.ownership, Ownership):
            object.__setattr__(self, "ownership", Ownership(self.ownership))
        if len(self.dislodged) > 1 or type(self.dislodged) is not tuple:
            object.__setattr__(self, "dislodged", tuple(sorted(self.dislodged, key=lambda d: d.unit)))
        if self.contested:
            object.__setattr__(self, "contested", frozenset(p.upper() for p in self.contested))
        by_province = {u.province: u for u in self.units}
        if len(by_province) != len(self.units):
            raise ValueError("two units in one province")
        object.__setattr__(self, "units_by_province", by_province)  # province -> unit (read-only)
        object.__setattr__(self, "_unit_counts", None)
        object.__setattr__(self, "_center_counts", None)
        object.__setattr__(self, "_fleets", None)

    @property
    def phase_name(self) -> str:
        return f"{SEASON_LETTER[self.season]}{self.year}{PHASE_LETTER[self.phase_type]}"

    def unit_at(self, province: str) -> Unit | None:
        by_province = self.units_by_province
        unit = by_province.get(province)
        if unit is None and not province.isupper():
            unit = by_province.get(province.upper())
        return unit

    @property
    def unit_counts(self) -> dict[str, int]:
        """Power -> units on the board (read-only by convention; built once)."""
        counts = self._unit_counts
        if counts is None:
            counts = {}
            for u in self.units:
                counts[u.power] = counts.get(u.power, 0) + 1
            object.__setattr__(self, "_unit_counts", counts)
        return counts

    @property
    def fleet_provinces(self) -> frozenset[str]:
        """The provinces fleets stand in: the convoy graph of this position (built once)."""
        fleets = self._fleets
        if fleets is None:
            fleets = frozenset(u.province for u in self.units if u.kind is FLEET)
            object.__setattr__(self, "_fleets", fleets)
        return fleets

    @property
    def center_counts(self) -> dict[str, int]:
        """Power -> supply centres owned (read-only by convention; built once)."""
        counts = self._center_counts
        if counts is None:
            counts = {}
            for owner in self.ownership.values():
                counts[owner] = counts.get(owner, 0) + 1
            object.__setattr__(self, "_center_counts", counts)
        return counts

    def units_of(self, power: str) -> tuple[Unit, ...]:
        return tuple(sorted((u for u in self.units if u.power == power), key=unit_order))

    def centers_of(self, power: str) -> tuple[str, ...]:
        return tuple(p for p, owner in self.ownership.items() if owner == power)

    def dislodged_at(self, province: str) -> DislodgedUnit | None:
        province = province.upper()
        return next((d for d in self.dislodged if d.unit.province == province), None)

    def powers_with_units(self) -> tuple[str, ...]:
        return tuple(sorted({u.power for u in self.units}))
