"""``POST /games/import`` under hostile input (issue 28 item 1), through the API in process.

Each reproduction of the issue is a test here: the import was anonymous and trusted the
document (``resolution: {}`` stored, a fake winner and any result taken, unbounded years,
owners, settings and source ids), and a game that imported could then answer 5xx on its
routes. Plus a property test: mutated export documents get 201 or a 4xx, never a 5xx, and
every game that does import serves every route without a 5xx.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from composition import wiring
from functions.api import body_guard
from functions.schemas import api as schemas
from functions.usecases.games.game_import import IMPORTS_PER_HOUR
from functions.usecases.turns import import_replay
from testkit.api_harness import OPERATOR_TOKEN, POWERS, InProcessApi, in_process_api
from tests.api.test_sandbox import MemoryRateCounter


def play(api: InProcessApi, phases: int, seed: int = 7, **settings: Any) -> str:
    """A full classical game played ``phases`` phases with random legal orders (retreats and
    builds come up on their own); the game id."""
    rng = random.Random(seed)
    game_id, _, tokens = api.new_game(**settings)
    for _ in range(phases):
        view = api.call("GET", f"/games/{game_id}", token=tokens["FRANCE"]).body
        if view["status"] != "ACTIVE":
            break
        for power in POWERS:
            legal = api.call("GET", f"/games/{game_id}", token=tokens[power]).body["legal_orders"]
            by_unit: dict[str, list[str]] = {}
            for order in legal:
                by_unit.setdefault(" ".join(order.split()[:2]), []).append(order)
            chosen = [rng.choice(options) for options in by_unit.values()]
            if chosen and view["phase_type"] != "ADJUSTMENT":
                api.call("POST", f"/games/{game_id}/orders", {"orders": chosen}, token=tokens[power])
        processed = api.call("POST", f"/games/{game_id}/process_turn", {"phase": view["phase"]},
                             token=OPERATOR_TOKEN)
        assert processed.status == 200, processed.raw
    return game_id


def exported(api: InProcessApi, game_id: str) -> dict[str, Any]:
    answer = api.call("GET", f"/games/{game_id}/export")
    assert answer.status == 200, answer.raw
    return dict(answer.body)


def import_as(api: InProcessApi, document: Any, token: str | None = OPERATOR_TOKEN) -> Any:
    return api.call("POST", "/games/import", document, token=token)


def serves_every_route(api: InProcessApi, game_id: str) -> list[str]:
    """Every read of an imported game, then its seats filled and a turn processed: the answers
    that were 5xx (none, if it serves)."""
    failures = []
    reads = ["", "/history", "/events", "/export", "/last_resolution", "/orders_status", "/map",
             "/map?format=png&width=200", "/map/orders", "/map/resolution", "/messages", "/channels"]
    view = api.call("GET", f"/games/{game_id}")
    history = api.call("GET", f"/games/{game_id}/history").body.get("phases", [])
    for phase in [p["phase"] for p in history][:2]:
        reads += [f"/map?phase={phase}", f"/map/resolution?phase={phase}", f"/map/orders?phase={phase}"]
    for path in reads:
        answer = api.call("GET", f"/games/{game_id}{path}")
        if answer.status >= 500:
            failures.append(f"GET {path}: {answer.status} {answer.raw[:200]}")
    for power in POWERS:
        answer = api.call("POST", f"/games/{game_id}/join", {"power": power})
        if answer.status >= 500:
            failures.append(f"join {power}: {answer.status} {answer.raw[:200]}")
    answer = api.call("POST", f"/games/{game_id}/process_turn", {"phase": view.body.get("phase")},
                      token=OPERATOR_TOKEN)
    if answer.status >= 500:
        failures.append(f"process_turn: {answer.status} {answer.raw[:200]}")
    return failures


def _export_of_a_played_game(phases: int, seed: int, **settings: Any) -> dict[str, Any]:
    """Played on an API of its own, which is put back before the tests' own."""
    for api in in_process_api():
        return exported(api, play(api, phases, seed, **settings))
    raise AssertionError("no API")


@pytest.fixture(scope="module")
def played() -> dict[str, Any]:
    """An export of a game of a dozen phases (public ballots, a year limit far away)."""
    return _export_of_a_played_game(12, 7, draw_votes="public", max_year=1950,
                                    phase_seconds={"MOVEMENT": 3600})


# --- who, how often, how big ----------------------------------------------------------------------


@pytest.mark.parametrize("bearer", [None, "junk-token", "seat"])
def test_only_signed_in_accounts_and_the_operator_import(api: InProcessApi, bearer: str | None) -> None:
    game_id, _, tokens = api.new_game()
    document = exported(api, game_id)
    token = tokens["FRANCE"] if bearer == "seat" else bearer
    refused = import_as(api, document, token=token)
    assert (refused.status, refused.body["code"]) == (401, "NOT_SIGNED_IN")
    games = len(api.store.games)
    _, jwt = api.pool.user("Importer")
    assert import_as(api, document, token=jwt).status == 201
    assert import_as(api, document).status == 201  # the operator
    assert len(api.store.games) == games + 2


def test_an_account_imports_at_most_so_many_games_an_hour(api: InProcessApi) -> None:
    wiring.services().rate_counter = MemoryRateCounter()
    game_id, _, _ = api.new_game()
    document = exported(api, game_id)
    sub, jwt = api.pool.user("Busy")
    assert [import_as(api, document, token=jwt).status for _ in range(IMPORTS_PER_HOUR)] == [201] * 10
    refused = import_as(api, document, token=jwt)
    assert (refused.status, refused.body["code"]) == (429, "TOO_MANY_IMPORTS")
    assert 0 < int(refused.headers["Retry-After"]) <= 3600
    assert import_as(api, document).status == 201  # the operator is not counted
    mine = api.call("GET", "/me/games", token=jwt).body["games"]
    assert len(mine) == IMPORTS_PER_HOUR and all(g["is_creator"] for g in mine)  # the importer created them


def test_the_size_limits_are_the_stated_ones(api: InProcessApi, played: dict[str, Any]) -> None:
    assert body_guard.MAX_IMPORT_BYTES == 4 * 1024 * 1024 and import_replay.MAX_PHASES == 400
    phases = schemas.ImportDocument.model_fields["phases"].metadata
    assert any(getattr(m, "max_length", None) == import_replay.MAX_PHASES for m in phases)
    too_long = {**played, "phases": [played["phases"][0]] * (import_replay.MAX_PHASES + 1)}
    assert import_as(api, too_long).status == 422
    padding = "x" * (body_guard.MAX_IMPORT_BYTES + 1)
    assert import_as(api, {**played, "source": {"game_id": "g", "created_at": padding}}).status == 413


# --- the issue's reproductions ---------------------------------------------------------------------


def _mutated(document: dict[str, Any], change: str) -> dict[str, Any]:
    doc = copy.deepcopy(document)
    first = doc["phases"][0]["state"] if doc["phases"] else doc["current"]["state"]
    if change == "empty resolution":
        doc["phases"][1]["resolution"] = {}
    elif change == "fake winner":
        doc["current"]["status"] = "COMPLETED"
        doc["result"] = {"kind": "solo", "winners": ["<img src=x onerror=alert(1)>"], "centers": {},
                         "final_phase": "S1901M", "ended_at": "2030-01-01T00:00:00Z"}
    elif change == "year 10^20":
        first["year"] = 10**20
    elif change == "year -5":
        first["year"] = -5
    elif change == "owner MARTIANS":
        first["ownership"]["PAR"] = "MARTIANS"
    elif change == "winner in the first position":
        first["winner"] = "<img src=x onerror=alert(1)>"
    elif change in ("max_year 10^30", "reminder_seconds 10^30", "nmr_extensions 10^9"):
        name, _, power = change.partition(" ")
        doc["settings"][name] = 10 ** int(power.split("^")[1])
    elif change == "phase_seconds 10^15":
        doc["settings"]["phase_seconds"] = {"MOVEMENT": 10**15}
    elif change == "1 MB source.game_id":
        doc["source"]["game_id"] = "g" * 1_000_000
    elif change == "another power's unit":
        doc["phases"][0]["orders"]["GERMANY"] = ["A PAR - BUR"]
    elif change == "a fake retreat option":
        doc["phases"] = []
        doc["current"]["state"].update(phase_type="RETREAT", dislodged=[
            {"unit": {"kind": "ARMY", "power": "FRANCE", "location": "PAR"}, "attacker_origin": "BUR",
             "retreats": ["MOS"]}])
    return doc


ISSUE_CHANGES = [
    "fake winner", "year 10^20", "year -5", "owner MARTIANS", "winner in the first position",
    "max_year 10^30", "reminder_seconds 10^30", "nmr_extensions 10^9", "phase_seconds 10^15",
    "1 MB source.game_id", "another power's unit", "a fake retreat option",
]


@pytest.mark.parametrize("change", ISSUE_CHANGES)
def test_a_hostile_document_is_refused_or_cleaned_and_never_a_5xx(
    api: InProcessApi, played: dict[str, Any], change: str
) -> None:
    answer = import_as(api, _mutated(played, change))
    if change == "fake winner":  # the document's status and result are never read
        assert answer.status == 201, answer.raw
        view = api.call("GET", f"/games/{answer.body['game_id']}").body
        assert view["status"] == "ACTIVE" and view.get("result") is None
        assert "onerror" not in json.dumps(api.call("GET", f"/games/{answer.body['game_id']}/export").body)
        return
    assert 400 <= answer.status < 500, (change, answer.status, answer.raw[:300])
    assert answer.body["code"] in ("BAD_IMPORT", "VALIDATION_ERROR", "PAYLOAD_TOO_LARGE"), answer.raw[:300]


@pytest.mark.parametrize("change", ["year 10^20", "year -5", "owner MARTIANS", "winner in the first position",
                                    "a fake retreat option", "a finished game"])
def test_a_bare_position_is_held_to_the_same_bounds(api: InProcessApi, played: dict[str, Any],
                                                    change: str) -> None:
    """With no history there is no replay to catch a forged position: its own checks must."""
    bare = {**copy.deepcopy(played), "phases": [], "result": None}
    start = copy.deepcopy(played["phases"][0]["state"])
    bare["current"] = {"phase": "S1901M", "status": "ACTIVE", "state": start}
    document = _mutated(bare, change) if change != "a finished game" else copy.deepcopy(bare)
    if change == "a finished game":
        document["current"]["state"].update(status="COMPLETED", winner="FRANCE")
    answer = import_as(api, document)
    assert (answer.status, answer.body["code"]) == (422, "BAD_IMPORT"), (change, answer.raw[:300])
    assert import_as(api, bare).status == 201  # the same position, untouched, imports


def test_an_empty_resolution_is_recomputed_and_the_game_serves_every_route(
    api: InProcessApi, played: dict[str, Any]
) -> None:
    # Given an export whose second phase's resolution was emptied (it was stored as is, and then
    # /history answered 422 and /map/resolution 500 for that game for good)
    document = _mutated(played, "empty resolution")
    # When it is imported
    answer = import_as(api, document)
    assert answer.status == 201, answer.raw
    game_id = answer.body["game_id"]
    # Then the resolution is the replay's, the history is whole, and every route serves
    history = api.call("GET", f"/games/{game_id}/history")
    assert history.status == 200
    recomputed = history.body["phases"][1]["resolution"]
    exported = played["phases"][1]["resolution"]  # an export carries no explanations (export.py)
    plain = [{k: v for k, v in r.items() if k != "explanation"} for r in recomputed["results"]]
    assert {**{k: recomputed[k] for k in exported}, "results": plain} == exported
    assert all(r["explanation"]["text"] for r in recomputed["results"])
    phase = played["phases"][1]["phase"]
    assert api.call("GET", f"/games/{game_id}/map/resolution?phase={phase}").status == 200
    assert serves_every_route(api, game_id) == []


@pytest.mark.parametrize("ballot", ["public", "secret"])
def test_a_draw_by_vote_is_in_no_history_so_the_import_plays_on(api: InProcessApi, ballot: str) -> None:
    """Votes end a game when they are cast, so no phase's history holds the deciding votes: the
    document's ``result`` is all that says it was drawn, and an import never takes it."""
    game_id, _, tokens = api.new_game(draw_votes=ballot)
    api.call("POST", f"/games/{game_id}/process_turn", {"phase": "S1901M"}, token=OPERATOR_TOKEN)
    for power in POWERS:
        api.call("POST", f"/games/{game_id}/votes", {"draw": True}, token=tokens[power])
    document = exported(api, game_id)
    assert document["result"]["kind"] == "draw" and len(document["phases"]) == 1
    imported = import_as(api, document)
    view = api.call("GET", f"/games/{imported.body['game_id']}").body
    assert view["status"] == "ACTIVE" and view.get("result") is None and view["phase"] == "F1901M"


# --- the property: mutated exports -----------------------------------------------------------------

LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([0, -1, 1, 2**31, 2**63, 10**15, 1901, 3001, 99999]),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=30),
    st.sampled_from(["", "FRANCE", "MARTIANS", "PAR", "A PAR - BUR", "S1901M", "W9999A", "RETREAT",
                     "COMPLETED", "x" * 5000, "<img src=x onerror=alert(1)>", "2030-01-01T00:00:00Z"]),
)
JSON_VALUES = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)), max_leaves=12)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value[:6]):
            found += _paths(inner, (*prefix, index))
    return found


@st.composite
def mutated_exports(draw: st.DrawFn, document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with one to three changes: a value replaced, a key dropped or added, a list
    item repeated or cut."""
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(doc)[1:]))
        parent = doc
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        how = draw(st.sampled_from(["replace", "drop", "add", "repeat"]))
        if how == "replace":
            parent[last] = draw(JSON_VALUES)
        elif how == "drop":
            del parent[last]
        elif how == "add" and isinstance(parent[last], dict):
            parent[last][draw(st.text(max_size=12))] = draw(JSON_VALUES)
        elif how == "repeat" and isinstance(parent[last], list) and parent[last]:
            parent[last].append(copy.deepcopy(parent[last][-1]))
    return doc


@pytest.fixture(scope="module")
def short_game() -> dict[str, Any]:
    """A five-phase export (a retreat or a build among them, as they come): small, so many
    mutations run in the time there is."""
    return _export_of_a_played_game(5, 11, draw_votes="public")


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_mutated_exports_get_201_or_a_4xx_and_every_import_serves(
    api: InProcessApi, short_game: dict[str, Any], data: st.DataObject
) -> None:
    document = data.draw(mutated_exports(short_game))
    answer = import_as(api, document)
    assert answer.status == 201 or 400 <= answer.status < 500, (answer.status, answer.raw[:500])
    if answer.status == 201:
        assert serves_every_route(api, answer.body["game_id"]) == []
