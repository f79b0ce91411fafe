"""The compact notation of shared/seeds/compact-notation.txt (the "Ruby Adjudicator" format).

A state is a space-separated list of power states::

    France:APar,FBre,AMar|Par,Bre,Mar England:ABel,FNth|Bel France:...

each ``<Power>:<units>|<owned provinces>``; the ``|...`` part may be left out. A unit
is ``A``/``F``, a province and an optional coast ``(sc)``; ``*Lon`` after a unit
marks it dislodged by a move from London (this module also reads and writes a bare
``*`` for a unit dislodged by a convoyed attack, whose origin is None). Powers are
written ``id.title()`` and provinces ``id.title()``; both are read in any case, and
provinces may also be any one-word name or alias of the map (``Nor``, ``StP``).

Orders (the unit type is required; ``power`` is given by the caller)::

    FDenH  ASwe-Nor  FSpa(sc)-Mar  AKieSFDenH  FSkaSASwe-Nor  FEngCALon-Bel
    ABudB (build)  ANAfD (disband)  ASwe*Nor (retreat)

What does not fit: a state's year, season and phase are arguments, not text;
retreat options, standoff provinces, status and winner are not written (parsing
gives empty ones). ``format_compact_order`` raises ValueError for a move via
convoy, a Waive, and an order whose unit letters are missing: the notation has no
form for them. Parse errors raise ``OrderSyntaxError``.
"""

from __future__ import annotations

import re
from functools import cache

from engine.maps.loader import MapData, load_map
from engine.notation.standard import OrderSyntaxError
from engine.types import (
    Build,
    Convoy,
    Disband,
    DislodgedUnit,
    GameState,
    Hold,
    Location,
    Move,
    Order,
    Ownership,
    PhaseType,
    Retreat,
    Season,
    SupportHold,
    SupportMove,
    Unit,
    UnitKind,
    Waive,
)

_COAST = r"(?:\((?:nc|sc|ec|wc)\)|/(?:nc|sc|ec|wc))?"


@cache
def _patterns(map: MapData) -> dict[str, re.Pattern[str]]:
    # ids and every one-word name or alias the map knows (the seed writes ``Nor``, ``StP``)
    words = {p.lower() for p in map.provinces} | {n for n in map.names if re.fullmatch(r"[a-z0-9]+", n)}
    prov = "(?:" + "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w))) + ")"
    loc = f"({prov}{_COAST})"
    unit = f"([AF]){loc}"
    shapes = {
        "hold": f"{unit}H",
        "move": f"{unit}-{loc}",
        "support_hold": f"{unit}S{unit}H",
        "support_move": f"{unit}S{unit}-{loc}",
        "convoy": f"{unit}C{unit}-{loc}",
        "build": f"{unit}B",
        "disband": f"{unit}D",
        "retreat": rf"{unit}\*{loc}",
        "state_unit": rf"{unit}(?:(\*)({prov})?)?",
        "province": prov,
    }
    return {name: re.compile(shape, re.IGNORECASE) for name, shape in shapes.items()}


def _location(text: str, map: MapData, at: int) -> Location:
    """``Spa``, ``Spa(sc)`` or ``Spa/sc`` (already matched by a pattern) as a Location."""
    words = re.sub(r"[()/]", " ", text).split()
    province = map.resolve_name(words[0]) or words[0].upper()
    coast = words[1].upper() if len(words) > 1 else None
    known = map.provinces[province].coasts
    if coast is not None and coast not in known:
        raise OrderSyntaxError(f"unknown coast '{province}/{coast}' at {at}", at)
    return Location(province, coast)


def _kind(letter: str) -> UnitKind:
    return UnitKind(letter.upper())


def parse_compact_order(text: str, power: str, map: MapData | None = None) -> Order:
    """Read one compact order (``FSkaSASwe-Nor``) given by ``power``."""
    if not isinstance(text, str):
        raise OrderSyntaxError("an order must be text at 0", 0)
    m_ = map if map is not None else load_map("classical")
    stripped = text.strip()
    offset = len(text) - len(text.lstrip())
    if not stripped:
        raise OrderSyntaxError("empty order at 0", 0)
    pats = _patterns(m_)
    power = power.upper()
    try:
        for name in ("hold", "move", "support_hold", "support_move", "convoy", "build", "disband",
                     "retreat"):
            m = pats[name].fullmatch(stripped)
            if m is None:
                continue
            g = m.groups()
            kind, unit = _kind(g[0]), _location(g[1], m_, offset + m.start(2))
            if name == "hold":
                return Hold(power, unit, kind)
            if name == "move":
                return Move(power, unit, _location(g[2], m_, offset + m.start(3)), False, kind)
            if name == "build":
                return Build(power, unit, kind)
            if name == "disband":
                return Disband(power, unit, kind)
            if name == "retreat":
                return Retreat(power, unit, _location(g[2], m_, offset + m.start(3)), kind)
            target_kind, target = _kind(g[2]), _location(g[3], m_, offset + m.start(4))
            if name == "support_hold":
                return SupportHold(power, unit, target, kind, target_kind)
            dest = _location(g[4], m_, offset + m.start(5))
            if name == "support_move":
                return SupportMove(power, unit, target, dest, kind, target_kind)
            return Convoy(power, unit, target, dest, kind, target_kind)
    except OrderSyntaxError:
        raise
    except ValueError as exc:
        raise OrderSyntaxError(f"{exc} at {offset}", offset) from exc
    raise OrderSyntaxError(f"not a compact order: {stripped!r} at {offset}", offset)


def _loc(location: Location) -> str:
    text = location.province.title()
    return f"{text}({location.coast.lower()})" if location.coast else text


def _unit(kind: UnitKind | None, location: Location) -> str:
    if kind is None:
        raise ValueError("the compact notation needs the unit type (A or F) of every unit")
    return f"{kind.value}{_loc(location)}"


def format_compact_order(order: Order) -> str:
    """The compact text of ``order`` (``FSkaSASwe-Nor``).

    Raises ValueError for orders the notation cannot express: a move via convoy,
    a Waive, or an order whose unit letters are missing (``kind`` None).
    """
    match order:
        case Waive():
            raise ValueError("the compact notation has no form for WAIVE")
        case Move(via_convoy=True):
            raise ValueError("the compact notation has no form for a move via convoy")
        case Hold(unit=loc, kind=kind):
            return f"{_unit(kind, loc)}H"
        case Move(unit=loc, dest=dest, kind=kind):
            return f"{_unit(kind, loc)}-{_loc(dest)}"
        case SupportHold(unit=loc, target=target, kind=kind, target_kind=tk):
            return f"{_unit(kind, loc)}S{_unit(tk, target)}H"
        case SupportMove(unit=loc, origin=origin, dest=dest, kind=kind, target_kind=tk):
            return f"{_unit(kind, loc)}S{_unit(tk, origin)}-{_loc(dest)}"
        case Convoy(unit=loc, origin=origin, dest=dest, kind=kind, target_kind=tk):
            return f"{_unit(kind, loc)}C{_unit(tk, origin)}-{_loc(dest)}"
        case Build(location=loc, kind=kind):
            return f"{_unit(kind, loc)}B"
        case Disband(unit=loc, kind=kind):
            return f"{_unit(kind, loc)}D"
        case Retreat(unit=loc, dest=dest, kind=kind):
            return f"{_unit(kind, loc)}*{_loc(dest)}"
    raise TypeError(f"not an order: {order!r}")


# --- states ----------------------------------------------------------------------------------


def format_compact_state(state: GameState, map: MapData | None = None) -> str:
    """The compact text of a state's units, dislodged units and ownership.

    Powers appear in id order; units and provinces sorted. A power with nothing
    on the board and no centres is left out. ``map`` is accepted for symmetry
    with ``parse_compact_state`` and is not needed.
    """
    powers = sorted(
        {u.power for u in state.units}
        | {d.unit.power for d in state.dislodged}
        | set(state.ownership.values())
    )
    parts = []
    for power in powers:
        units = [_unit(u.kind, u.location) for u in sorted(u for u in state.units if u.power == power)]
        for d in state.dislodged:
            if d.unit.power == power:
                origin = d.attacker_origin.title() if d.attacker_origin else ""
                units.append(f"{_unit(d.unit.kind, d.unit.location)}*{origin}")
        owned = [p.title() for p in state.centers_of(power)]
        text = f"{power.title()}:{','.join(units)}"
        parts.append(f"{text}|{','.join(owned)}" if owned else text)
    return " ".join(parts)


def _power_id(name: str, map: MapData, at: int) -> str:
    wanted = name.strip().upper()
    for power in map.powers.values():
        if wanted in (power.id.upper(), power.name.upper()):
            return power.id
    raise OrderSyntaxError(f"unknown power {name!r} at {at}", at)


def parse_compact_state(
    text: str,
    map: MapData | None = None,
    year: int | None = None,
    season: Season | str | None = None,
    phase_type: PhaseType | str | None = None,
) -> GameState:
    """Read a compact state (``France:APar,FBre|Par,Bre``).

    ``year`` and ``season`` default to the map's start; ``phase_type`` defaults to
    RETREAT when a unit is dislodged and to the map's start phase otherwise.
    Dislodged units get empty retreat sets.
    """
    if not isinstance(text, str):
        raise OrderSyntaxError("a state must be text at 0", 0)
    m_ = map if map is not None else load_map("classical")
    pats = _patterns(m_)
    units: list[Unit] = []
    dislodged: list[DislodgedUnit] = []
    ownership: dict[str, str] = {}
    try:
        for chunk in re.finditer(r"\S+", text):
            at = chunk.start()
            name, colon, rest = chunk.group().partition(":")
            if not colon:
                raise OrderSyntaxError(f"expected '<Power>:' at {at}", at)
            power = _power_id(name, m_, at)
            unit_text, _, owned_text = rest.partition("|")
            pos = at + len(name) + 1
            for item in unit_text.split(","):
                if item:
                    _state_unit(item, power, pats["state_unit"], m_, pos, units, dislodged)
                pos += len(item) + 1
            for item in owned_text.split(",") if owned_text else ():
                province = m_.resolve_name(item) if pats["province"].fullmatch(item) else None
                if province is None:
                    raise OrderSyntaxError(f"unknown province {item!r} at {pos}", pos)
                ownership[province] = power
                pos += len(item) + 1
        provinces = [u.province for u in units]
        if len(provinces) != len(set(provinces)):
            twice = sorted({p for p in provinces if provinces.count(p) > 1})
            raise OrderSyntaxError(f"two units in {', '.join(twice)} at 0", 0)
        phase = phase_type if phase_type is not None else (
            PhaseType.RETREAT if dislodged else m_.start_phase
        )
        return GameState(
            year=year if year is not None else m_.start_year,
            season=Season(season) if season is not None else m_.start_season,
            phase_type=PhaseType(phase),
            units=frozenset(units),
            ownership=Ownership(ownership),
            dislodged=tuple(dislodged),
        )
    except OrderSyntaxError:
        raise
    except ValueError as exc:
        raise OrderSyntaxError(f"{exc} at 0", 0) from exc


def _state_unit(
    item: str,
    power: str,
    pattern: re.Pattern[str],
    map: MapData,
    pos: int,
    units: list[Unit],
    dislodged: list[DislodgedUnit],
) -> None:
    m = pattern.fullmatch(item)
    if m is None:
        raise OrderSyntaxError(f"not a unit: {item!r} at {pos}", pos)
    try:
        unit = Unit(_kind(m.group(1)), power, _location(m.group(2), map, pos + m.start(2)))
    except OrderSyntaxError:
        raise
    except ValueError as exc:
        raise OrderSyntaxError(f"{exc} at {pos}", pos) from exc
    if m.group(3):
        origin = (map.resolve_name(m.group(4)) or m.group(4).upper()) if m.group(4) else None
        dislodged.append(DislodgedUnit(unit, origin))
    else:
        units.append(unit)
