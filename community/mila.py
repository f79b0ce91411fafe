"""MILA's saved-game JSON to and from Convoy's export document (issue 34, open formats).

MILA's ``diplomacy`` package (``diplomacy.utils.export.to_saved_game_format``) saves a game
as ``{"id", "map", "rules", "phases": [{"name", "state", "orders", "results",
"messages"}]}``: one entry per phase with the position at its start, the orders given,
their results per unit, and the press; the last entry is the current phase (named
``COMPLETED`` once a power has won). Researchers and bot authors read it, and Cicero's
published games use the same layout (``community.cicero``).

The format says nothing of how a game ended (MILA issue #149), so the export carries an
extension field, ``"convoy"``: ``{"version": 1, "variant", "rulebook", "status",
"outcome", "source"}`` where ``outcome`` is Convoy's result record (``kind``, ``winners``,
``centers``, ``final_phase``, ``ended_at``) or null while the game goes on. MILA's reader
ignores fields it does not know, so the document still loads there.

- ``to_mila(document)``: from a ``convoy-export/1`` document (functions/usecases/turns/export.py).
  ``classical`` is MILA's ``standard`` map; other variants are refused
  (``UnsupportedVariant``). Messages are empty: the export holds no press. Builds are
  written MILA's way (``A PAR B``); results use MILA's words (``bounce``, ``cut``, ``void``,
  ``no convoy``, ``dislodged``, ``disband``).
- ``from_mila(saved)``: a ``convoy-export/1`` document, *replayed through Convoy's engine*
  from the first phase's position: each phase's orders are adjudicated and the resulting
  units, centres and phase name must be the next phase's, or ``DoesNotReplay`` names the
  phase. Adjustments where a power in civil disorder gave fewer disbands than it owed
  are the one place rulebooks choose differently (which units go); there the recorded
  next position is the authority and the disbands it shows are made explicit.

Pure: dicts in, dicts out; the caller reads and writes files and stores games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine

FORMAT = "convoy-export/1"
MAPS = {"classical": "standard"}  # Convoy variant -> MILA map
VARIANTS = {mila: convoy for convoy, mila in MAPS.items()}
RESULT_WORDS = {"BOUNCE": "bounce", "CUT": "cut", "VOID": "void", "NO_CONVOY": "no convoy",
                "DISBAND": "disband"}
COMPLETED = "COMPLETED"
FOREIGN_RULEBOOK = "2000"  # a document from MILA or webDiplomacy: the 2000 rules they follow


class UnsupportedVariant(ValueError):
    """The variant has no MILA map (or the MILA map no Convoy variant)."""


class DoesNotReplay(ValueError):
    """The document's orders do not lead from one recorded position to the next."""


# --- Convoy -> MILA ---------------------------------------------------------------------------


def _unit(unit: engine.Unit) -> str:
    return f"{unit.kind.value} {unit.location}"


def mila_state(state: engine.GameState, the_map: engine.MapData) -> dict[str, Any]:
    """A position as MILA's ``Game.get_state`` writes it (the fields ``set_state`` reads)."""
    powers = sorted(the_map.power_ids)
    owned = {p: sorted(c for c, owner in state.ownership.items() if owner == p) for p in powers}
    units: dict[str, list[str]] = {p: sorted(_unit(u) for u in state.units if u.power == p) for p in powers}
    retreats: dict[str, dict[str, list[str]]] = {p: {} for p in powers}
    for d in _retreating(state):
        units[d.unit.power].append("*" + _unit(d.unit))
        retreats[d.unit.power][_unit(d.unit)] = sorted(str(loc) for loc in d.retreats)
    adjusting = state.phase_type is engine.PhaseType.ADJUSTMENT and state.status is engine.GameStatus.ACTIVE
    builds = {p: _builds(state, the_map, p) if adjusting else {"count": 0, "homes": []} for p in powers}
    return {
        "name": phase_name(state),
        "units": units,
        "retreats": retreats,
        "centers": owned,
        "homes": {p: sorted(set(the_map.home_centers(p)) & set(owned[p])) for p in powers},
        "builds": builds,
    }


def _retreating(state: engine.GameState) -> list[engine.DislodgedUnit]:
    """Dislodged units that can retreat: MILA disbands the others at once, with no retreat
    phase when none can (Convoy keeps a retreat phase where they disband)."""
    return [d for d in state.dislodged if d.retreats]


def forced_retreat(state: engine.GameState) -> bool:
    """A retreat phase with nothing to order: MILA has no such phase."""
    return state.phase_type is engine.PhaseType.RETREAT and not _retreating(state)


def _builds(state: engine.GameState, the_map: engine.MapData, power: str) -> dict[str, Any]:
    count = engine.adjustment_balance(state, the_map, power)
    sites = sorted(engine.build_sites(state, the_map, power)) if count > 0 else []
    return {"count": min(count, len(sites)) if count > 0 else count, "homes": sites}


def phase_name(state: engine.GameState) -> str:
    """MILA names a position a power has won ``COMPLETED``."""
    return COMPLETED if state.status is engine.GameStatus.COMPLETED else state.phase_name


def mila_order(text: str) -> str:
    """Convoy's canonical order text as MILA writes it: only builds differ (``A PAR B``)."""
    return f"{text[len('BUILD '):]} B" if text.startswith("BUILD ") else text


def mila_results(resolution: Mapping[str, Any]) -> dict[str, list[str]]:
    """MILA's per-unit results of a stored resolution (builds and waives have none)."""
    out: dict[str, list[str]] = {}
    for entry in resolution.get("results") or ():
        order = entry["order"]
        if order["type"] in ("BUILD", "WAIVE"):
            continue
        words = [RESULT_WORDS[entry["result"]]] if entry["result"] in RESULT_WORDS else []
        if entry.get("dislodged"):
            words.append("dislodged")
        out[f"{order['kind']} {order['unit']}"] = words
    return out


def to_mila(document: Mapping[str, Any]) -> dict[str, Any]:
    """MILA's saved-game JSON of a ``convoy-export/1`` document, with the ``convoy`` extension."""
    if document.get("format") != FORMAT:
        raise ValueError(f'not a {FORMAT} document')
    variant = str(document["variant"])
    if variant not in MAPS:
        raise UnsupportedVariant(f"MILA has no map for {variant!r}; exported: {', '.join(MAPS)}")
    the_map = engine.load_map(variant)
    phases = []
    for entry in document.get("phases") or ():
        state = engine.state_from_dict(entry["state"])
        if forced_retreat(state):
            continue
        phases.append({
            "name": state.phase_name,
            "state": mila_state(state, the_map),
            "orders": {p: [mila_order(o) for o in given] for p, given in sorted(entry["orders"].items())},
            "results": mila_results(entry["resolution"]),
            "messages": [],
        })
    current = engine.state_from_dict(document["current"]["state"])
    phases.append({"name": phase_name(current), "state": mila_state(current, the_map), "orders": {},
                   "results": {}, "messages": []})
    source = dict(document.get("source") or {})
    return {
        "id": str(source.get("game_id") or ""),
        "map": MAPS[variant],
        "rules": [],
        "phases": phases,
        "convoy": {"version": 1, "variant": variant, "rulebook": document.get("rules"),
                   "status": document["current"].get("status"), "outcome": document.get("result"),
                   "source": source},
    }


# --- MILA -> Convoy ---------------------------------------------------------------------------


def _phase_parts(name: str) -> tuple[str, int, str]:
    seasons = {"S": "SPRING", "F": "FALL", "W": "WINTER"}
    types = {"M": "MOVEMENT", "R": "RETREAT", "A": "ADJUSTMENT"}
    if len(name) != 6 or name[0] not in seasons or name[-1] not in types or not name[1:5].isdigit():
        raise ValueError(f"not a phase name: {name!r}")
    return seasons[name[0]], int(name[1:5]), types[name[-1]]


def convoy_state(state: Mapping[str, Any]) -> engine.GameState:
    """The opening position of a MILA phase (dislodged units are not read: replay starts
    from a position without retreats)."""
    season, year, phase_type = _phase_parts(str(state["name"]))
    units = [{"kind": text.split()[0], "power": power, "location": text.split()[1]}
             for power, given in sorted(state["units"].items()) for text in given or ()
             if not text.startswith("*")]
    ownership = {c: power for power, centres in sorted(state["centers"].items()) for c in centres or ()}
    return engine.state_from_dict({"year": year, "season": season, "phase_type": phase_type, "units": units,
                                   "ownership": ownership, "dislodged": [], "contested": [],
                                   "status": "ACTIVE", "winner": None})


def _position(state: Mapping[str, Any]) -> tuple[str, dict[str, set[str]], dict[str, set[str]]]:
    units = {p: set(u) for p, u in state["units"].items() if u}
    centers = {p: set(c) for p, c in state["centers"].items() if c}
    return str(state["name"]), units, centers


def _convoy_position(state: engine.GameState) -> tuple[str, dict[str, set[str]], dict[str, set[str]]]:
    units: dict[str, set[str]] = {}
    for u in state.units:
        units.setdefault(u.power, set()).add(_unit(u))
    for d in _retreating(state):
        units.setdefault(d.unit.power, set()).add("*" + _unit(d.unit))
    centers: dict[str, set[str]] = {}
    for c, owner in state.ownership.items():
        centers.setdefault(owner, set()).add(c)
    return phase_name(state), units, centers


def _parsed(state: engine.GameState, the_map: engine.MapData,
            given: Mapping[str, Sequence[str] | None]) -> dict[str, list[engine.Order]]:
    out: dict[str, list[engine.Order]] = {}
    for power, texts in sorted(given.items()):
        if texts is None:
            continue
        out[power] = []
        for text in texts:
            try:
                out[power].append(engine.parse_order(text, power=power, state=state, map=the_map))
            except engine.OrderSyntaxError as exc:
                raise DoesNotReplay(f"{state.phase_name}: {power}'s order {text!r} does not parse: "
                                    f"{exc.message}") from exc
    return out


def _recorded_disbands(state: engine.GameState, the_map: engine.MapData,
                       orders: dict[str, list[engine.Order]],
                       recorded: Mapping[str, Any]) -> dict[str, list[engine.Order]]:
    """The orders plus a disband for each unit the recorded next position no longer has
    (civil-disorder disbands, which rulebooks choose differently)."""
    kept = {p: set(u or ()) for p, u in recorded["units"].items()}
    out = {p: list(o) for p, o in orders.items()}
    for unit in sorted(state.units, key=_unit):
        text = _unit(unit)
        ordered = any(engine.format_order(o) == f"{text} D" for o in out.get(unit.power, ()))
        if text not in kept.get(unit.power, set()) and not ordered:
            out.setdefault(unit.power, []).append(
                engine.parse_order(f"{text} D", power=unit.power, state=state, map=the_map))
    return out


Step = tuple[engine.GameState, engine.Resolution, dict[str, list[engine.Order]]]


def _adjudicate(state: engine.GameState, the_map: engine.MapData, rules: str,
                orders: dict[str, list[engine.Order]]) -> tuple[engine.GameState, engine.Resolution]:
    after, resolution = engine.Game(map=the_map, state=state, rules=rules).adjudicate(orders)
    assert after.state is not None
    return engine.concluded(after.state), resolution


def replay_phase(state: engine.GameState, the_map: engine.MapData, rules: str,
                 given: Mapping[str, Sequence[str] | None], recorded: Mapping[str, Any],
                 ) -> tuple[engine.GameState, list[Step]]:
    """Adjudicate one phase's orders from ``state``; the result must be ``recorded`` (the
    next phase's MILA position) or ``DoesNotReplay``. The steps are the phase, and the
    retreat phase with nothing to order that Convoy adds where MILA has none."""
    orders = _parsed(state, the_map, given)
    new, resolution = _adjudicate(state, the_map, rules, orders)
    if _convoy_position(new) != _position(recorded) and state.phase_type is engine.PhaseType.ADJUSTMENT:
        orders = _recorded_disbands(state, the_map, orders, recorded)
        new, resolution = _adjudicate(state, the_map, rules, orders)
    steps: list[Step] = [(state, resolution, orders)]
    if forced_retreat(new):
        after, disbanded = _adjudicate(new, the_map, rules, {})
        steps.append((new, disbanded, {}))
        new = after
    if _convoy_position(new) != _position(recorded):
        raise DoesNotReplay(f"the orders of {state.phase_name} lead to {_differences(new, recorded)}")
    return new, steps


def _differences(state: engine.GameState, recorded: Mapping[str, Any]) -> str:
    name, units, centers = _convoy_position(state)
    want_name, want_units, want_centers = _position(recorded)
    parts = [f"{name}, recorded {want_name}"] if name != want_name else []
    for power in sorted(set(units) | set(want_units)):
        extra, missing = units.get(power, set()) - want_units.get(power, set()), \
            want_units.get(power, set()) - units.get(power, set())
        if extra or missing:
            parts.append(f"{power} units +{sorted(extra)} -{sorted(missing)}")
    if centers != want_centers:
        parts.append("other centres")
    return "; ".join(parts) or "a different position"


def resolution_record(resolution: engine.Resolution, nmr: Sequence[str]) -> dict[str, Any]:
    """A resolution as Convoy's export document carries it: each result with its power and
    order text (as functions/usecases/turns/process_turn.py's ``resolution_view``) but no
    explanation (an export leaves them out: functions/usecases/turns/export.py says why), the
    engine's notes, and the NMR powers."""
    data = engine.resolution_to_dict(resolution)
    results = []
    for entry, result in zip(data.get("results", []), resolution.results, strict=True):
        entry.pop("explanation", None)
        results.append({**entry, "power": result.order.power, "order_str": engine.format_order(result.order)})
    return {"results": results, "notes": data.get("notes", []), "nmr": sorted(nmr)}


def _ended_by_agreement(state: engine.GameState, given: Mapping[str, Any],
                        following: Mapping[str, Any]) -> bool:
    """MILA's ``Game.draw`` ends the game in the current phase without playing it: the phase
    is kept with no orders and followed by ``COMPLETED`` at the same position (no solo)."""
    same = _convoy_position(state)[1:] == _position(following["state"])[1:]
    return following.get("name") == COMPLETED and not any(given.values()) and same


def replay(phases: Sequence[Mapping[str, Any]], the_map: engine.MapData, rules: str,
           ) -> tuple[list[dict[str, Any]], engine.GameState]:
    """Convoy's phase records of MILA-layout ``phases`` replayed through the engine, and the
    position they lead to (the last entry is the current phase: its orders are not played)."""
    if not phases:
        raise DoesNotReplay("no phases")
    state = convoy_state(phases[0]["state"])
    records: list[dict[str, Any]] = []
    for n, (phase, following) in enumerate(zip(phases, phases[1:], strict=False)):
        if phase["name"] != phase_name(state):
            raise DoesNotReplay(f"phase {n} is named {phase['name']}, the position is {phase_name(state)}")
        given = dict(phase.get("orders") or {})
        if _ended_by_agreement(state, given, following):
            break
        state, steps = replay_phase(state, the_map, rules, given, following["state"])
        for before, resolution, orders in steps:
            owing = engine.powers_with_orders_to_give(before, the_map)
            records.append({
                "n": len(records), "phase": before.phase_name, "state": engine.state_to_dict(before),
                "orders": {p: [engine.format_order(o) for o in given] for p, given in orders.items()},
                "resolution": resolution_record(resolution, [p for p in owing if p not in orders]),
                "processed_at": "",
            })
    return records, state


def from_mila(saved: Mapping[str, Any], *, rules: str | None = None) -> dict[str, Any]:
    """A ``convoy-export/1`` document of MILA's saved game, replayed through Convoy's engine.

    ``rules``: the rulebook to adjudicate with; by default the ``convoy`` extension's, else
    ``FOREIGN_RULEBOOK`` (MILA and webDiplomacy adjudicate by the 2000 rulebook). The outcome
    and status come from the extension when present; without it a game is ACTIVE unless its last
    position is a solo or MILA named it ``COMPLETED`` (a draw or concession its players agreed:
    the note's "Victory by:" powers). The importer replays either way and takes neither from
    the document (issue 28): a game ended by agreement is imported as still in play."""
    variant = VARIANTS.get(str(saved.get("map")))
    if variant is None:
        raise UnsupportedVariant(f"no Convoy variant for MILA map {saved.get('map')!r}; "
                                 f"read: {', '.join(VARIANTS)}")
    extension = dict(saved.get("convoy") or {})
    rulebook = engine.get_rulebook(rules or extension.get("rulebook") or FOREIGN_RULEBOOK).name
    the_map = engine.load_map(variant)
    records, current = replay(list(saved["phases"]), the_map, rulebook)
    status, result = _ending(extension, saved["phases"][-1], current, the_map, records)
    return {
        "format": FORMAT,
        "source": dict(extension.get("source") or {"game_id": saved.get("id"), "created_at": None}),
        "variant": variant, "rules": rulebook, "settings": {},
        "phases": records,
        "current": {"phase": current.phase_name, "state": engine.state_to_dict(current), "status": status},
        "result": result,
    }


def _ending(extension: Mapping[str, Any], last: Mapping[str, Any], current: engine.GameState,
            the_map: engine.MapData, records: Sequence[Mapping[str, Any]],
            ) -> tuple[str, dict[str, Any] | None]:
    """How the game stands: the extension's outcome (a Convoy export), a solo on the board, or
    MILA's ``COMPLETED`` last phase with no solo — a game its players ended by agreement."""
    last_name, note = str(last.get("name")), str((last.get("state") or {}).get("note") or "")
    if extension.get("outcome"):
        return str(extension.get("status") or COMPLETED), dict(extension["outcome"])
    counts = current.center_counts
    centers = {p: int(counts.get(p, 0)) for p in sorted(the_map.power_ids)}
    final_phase = records[-1]["phase"] if records else None
    if current.status is engine.GameStatus.COMPLETED and current.winner:
        return COMPLETED, {"kind": "solo", "winners": [current.winner], "centers": centers,
                           "final_phase": final_phase, "ended_at": ""}
    if last_name == COMPLETED:  # ended by agreement in MILA: "Victory by: AUS, ENG, ..." names who shares it
        winners = _agreed_winners(note, current, the_map)
        kind = "draw" if len(winners) != 1 else "concession"
        return COMPLETED, {"kind": kind, "winners": winners, "centers": centers,
                           "final_phase": final_phase, "ended_at": ""}
    return "ACTIVE", None


def _agreed_winners(note: str, current: engine.GameState, the_map: engine.MapData) -> list[str]:
    """The powers MILA's note names (its three-letter abbreviations), else every survivor."""
    by_abbreviation = {p[:3]: p for p in the_map.power_ids}
    named = (w.strip().upper() for w in note.partition("Victory by:")[2].split(","))
    winners = sorted({by_abbreviation[a] for a in named if a in by_abbreviation})
    return winners or sorted({u.power for u in current.units} | set(current.ownership.values()))
