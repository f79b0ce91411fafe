"""Export a game as one JSON document, and import such a document as a new game (seed W5).

``export_game`` (``GET /games/{id}/export``) returns:
``{"format": "convoy-export/1", "source": {"game_id", "created_at"}, "variant", "rules",
"settings", "phases": [{"n", "phase", "state", "orders", "resolution", "processed_at"}],
"current": {"phase", "state", "status"}, "result"}``.
- ``phases`` is the adjudicated history exactly as stored (public after each phase:
  all orders, resolutions with their NMRs and public-ballot votes).
- ``settings`` is an allow-list (``EXPORTED_SETTINGS``): never the join password hash,
  never notification targets (webhook URLs) or their signing secret. A setting added
  later is exported only once it is put on the list, so nothing new leaks by default.
- Never pending orders, secret votes, press, tokens or any hash: none of them is read.
Anyone may export, as anyone may read a game's history: the export holds nothing the
history, the view and the listing do not already show.

``import_game`` (``POST /games/import``) creates a new game from a document at its last
phase: the history is stored as it was, every seat is open (an imported game comes
back open, as the seed says: no players, no password), the importer gets the creator
token. The document is checked before anything is written: the variant and rulebook
exist, the settings are valid, and the history *replays*: adjudicating each phase's
orders from its state gives the next phase's state, and the last gives ``current``.
So export -> import -> export gives the same document, ``source`` aside.

Writing: the META item is created first with status ``IMPORTING`` (nothing may play
it), then each phase is appended with ``commit_turn``, the last write setting the real
status; an interrupted import leaves an ``IMPORTING`` game nobody can play, never a
half-imported playable one.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import engine
from functions.errors import BadImport
from functions.ports import Clock, GameRecord, GameStore, PhaseRecord
from functions.usecases.common import add_event, game_map, hash_token, iso, load, new_token
from functions.usecases.create_game import PHASE_TYPES, Created
from functions.usecases.deadline_grid import check_grid
from functions.usecases.lifecycle_settings import check_dummies

FORMAT = "convoy-export/1"
EXPORTED_SETTINGS = (
    "phase_seconds", "auto_process", "reminder_seconds", "draw_votes", "max_year", "nmr_extensions",
    "civil_disorder_after", "dummy_powers", "demo", "deadline_at",
)
RESULT_FIELDS = ("kind", "winners", "centers", "final_phase", "ended_at")


def export_game(store: GameStore, game_id: str) -> dict[str, Any]:
    game = load(store, game_id)
    return {
        "format": FORMAT,
        "source": {"game_id": game.game_id, "created_at": game.created_at},
        "variant": game.variant,
        "rules": game.rules,
        "settings": {k: game.settings[k] for k in EXPORTED_SETTINGS if k in game.settings},
        "phases": [
            {"n": p.n, "phase": p.phase, "state": p.state_before, "orders": p.orders,
             "resolution": p.resolution, "processed_at": p.processed_at}
            for p in store.phases(game_id)
        ],
        "current": {"phase": game.phase, "state": game.state, "status": game.status},
        "result": dict(game.result) if game.result else None,
    }


# --- import --------------------------------------------------------------------------------


def import_game(store: GameStore, clock: Clock, document: Mapping[str, Any]) -> Created:
    try:
        game, phases = _checked(document)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # parse and map errors are ValueErrors
        raise BadImport(f"not a {FORMAT} document: {type(exc).__name__}: {exc}") from exc
    now = clock.now()
    token = new_token()
    final_status = game.status
    game.game_id = secrets.token_hex(6)
    game.created_at = game.phase_started_at = iso(now)
    game.creator_token_hash = hash_token(token)
    game.status = "IMPORTING" if phases else final_status
    source = dict(document.get("source") or {})
    event = add_event(game, "GAME_IMPORTED", {"from": source.get("game_id"), "phases": len(phases)}, now)
    stored = store.create(game, [event])
    for i, phase in enumerate(phases):
        if i == len(phases) - 1:
            stored.status = final_status
        stored = store.commit_turn(stored, expected_version=stored.version, phase=phase)
    return Created(game_id=game.game_id, token=token)


def _checked(document: Mapping[str, Any]) -> tuple[GameRecord, list[PhaseRecord]]:
    """The game (at its last phase, seats open) and its history, or ``BAD_IMPORT``."""
    if document.get("format") != FORMAT:
        raise BadImport(f'"format" must be "{FORMAT}"')
    variant, rules = str(document["variant"]), str(document["rules"])
    the_map = game_map(variant)
    try:
        engine.get_rulebook(rules)
    except KeyError as exc:
        raise BadImport(f"unknown rulebook {rules!r}") from exc
    settings = _settings(dict(document.get("settings") or {}), the_map)
    current = document["current"]
    state = engine.state_from_dict(current["state"])
    phases = [_phase(entry) for entry in document.get("phases") or []]
    _replay(phases, state, the_map, rules)
    status = str(current.get("status") or "ACTIVE")
    result = document.get("result")
    if status not in ("ACTIVE", "COMPLETED") or (status == "COMPLETED") != bool(result):
        raise BadImport("current.status is ACTIVE, or COMPLETED with a result")
    game = GameRecord(
        game_id="", variant=variant, rules=rules, created_at="", creator_token_hash="",
        state=engine.state_to_dict(state), phase=state.phase_name, phase_started_at="",
        status=status, phase_index=len(phases), settings=settings,
        result={k: result[k] for k in RESULT_FIELDS} if result else None,
    )
    return game, phases


def _phase(entry: Mapping[str, Any]) -> PhaseRecord:
    return PhaseRecord(
        n=int(entry["n"]), phase=str(entry["phase"]), state_before=dict(entry["state"]),
        orders={str(p): [str(o) for o in given] for p, given in dict(entry["orders"]).items()},
        resolution=dict(entry["resolution"]), processed_at=str(entry["processed_at"]),
    )


def _replay(phases: list[PhaseRecord], current: engine.GameState, the_map: engine.MapData,
            rules: str) -> None:
    """Each phase's orders, adjudicated from its state, must give the next state."""
    for i, phase in enumerate(phases):
        if phase.n != i:
            raise BadImport(f"phase {phase.phase} is number {phase.n}, expected {i}")
        before = engine.state_from_dict(phase.state_before)
        if before.phase_name != phase.phase:
            raise BadImport(f"phase {phase.phase} holds the state of {before.phase_name}")
        orders = {p: [engine.parse_order(t, power=p, state=before, map=the_map) for t in given]
                  for p, given in sorted(phase.orders.items())}
        after, _ = engine.Game(map=the_map, state=before, rules=rules).adjudicate(orders)
        expected = engine.state_from_dict(phases[i + 1].state_before) if i + 1 < len(phases) else current
        if after.state != expected:
            raise BadImport(f"the orders of {phase.phase} do not lead to the next state: the history "
                            "does not replay")
    if not phases:
        engine.Game(map=the_map, state=current, rules=rules)  # the map check of a bare position


def _settings(given: dict[str, Any], the_map: engine.MapData) -> dict[str, Any]:
    unknown = sorted(set(given) - set(EXPORTED_SETTINGS))
    if unknown:
        raise BadImport(f"unknown settings: {', '.join(unknown)}")
    out: dict[str, Any] = {"private": False}  # an imported game comes back open
    if "phase_seconds" in given:
        seconds = {str(k): int(v) for k, v in dict(given["phase_seconds"] or {}).items()}
        if set(seconds) - set(PHASE_TYPES) or any(v <= 0 for v in seconds.values()):
            raise BadImport("phase_seconds: positive seconds per MOVEMENT, RETREAT, ADJUSTMENT")
        out["phase_seconds"] = dict(sorted(seconds.items()))
    if "auto_process" in given:
        out["auto_process"] = bool(given["auto_process"])
    if "draw_votes" in given:
        if given["draw_votes"] not in ("secret", "public"):
            raise BadImport('draw_votes is "secret" or "public"')
        out["draw_votes"] = given["draw_votes"]
    for name in ("reminder_seconds", "max_year", "nmr_extensions", "civil_disorder_after"):
        if given.get(name) is not None:
            if int(given[name]) < 0:
                raise BadImport(f"{name} must not be negative")
            out[name] = int(given[name])
    if given.get("dummy_powers"):
        out["dummy_powers"] = check_dummies([str(p) for p in given["dummy_powers"]], the_map)
    if given.get("demo"):
        out["demo"] = True
    if given.get("deadline_at"):
        out["deadline_at"] = check_grid(given["deadline_at"])
    return out
