"""The stateless sandbox, POST /adjudicate and POST /adjudicate/legal_orders (issue 19), in process.

Every DATC case the API's rulebooks can play goes through the real handler here (the local
stack's HTTP test, tests/system/test_sandbox_http.py, sends a sample over a socket); then
both notations, both variants and both rulebooks, the stable 4xx codes of bad positions,
the rate limit, and a hypothesis test that no input makes it answer 5xx.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from composition import wiring
from local_stack.http_adapter import LocalContext, to_event
from testkit.api_harness import InProcessApi, in_process_api
from testkit.datc import EXTRA, MAIN
from testkit.sandbox_datc import api_rules, run_case_over_api

CLASSICAL = engine.load_map("classical")
FRANCE_START = "France:APar,FBre,AMar|Par,Bre,Mar"


def _send(api: InProcessApi) -> Any:
    def send(body: dict[str, Any]) -> tuple[int, Any]:
        answer = api.call("POST", "/adjudicate", body)
        return answer.status, answer.body

    return send


# --- DATC through the API ---------------------------------------------------------------------

PLAYABLE = [c for c in MAIN + EXTRA if api_rules(c) is not None]


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in PLAYABLE])
def test_datc_case_through_post_adjudicate(api: InProcessApi, case: Any) -> None:
    """DATC v3.0 §6 and the alternative-rule cases (OPTIONS.md), case id in the test id."""
    run_case_over_api(case, _send(api))


def test_only_custom_rulebook_cases_are_left_out() -> None:
    """The cases not played above need a rulebook the API does not name (tags 1971, strict)."""
    left = {c.tag for c in MAIN + EXTRA if api_rules(c) is None}
    assert left <= {"1971", "strict"}
    assert len(PLAYABLE) >= 180


# --- notations, variants, rulebooks -------------------------------------------------------------


def test_compact_position_and_orders_in_compact_out(api: InProcessApi) -> None:
    # Given the seed's own example notation: France's start, orders in compact notation
    body = {
        "compact": FRANCE_START,
        "orders": {"France": ["APar-Bur", "FBre-Mao", "AMarSAPar-Bur"]},
        "notation": "compact",
        "include_compact": True,
    }
    # When
    answer = api.call("POST", "/adjudicate", body)
    # Then
    assert answer.status == 200, answer.raw
    assert [o["canonical"] for o in answer.body["orders"]] == [
        "A PAR - BUR",
        "F BRE - MAO",
        "A MAR S A PAR - BUR",
    ]
    assert answer.body["compact"] == "France:AMar,APar,FBre|Bre,Mar,Par"  # canonical: sorted
    assert answer.body["next"]["compact"] == "France:ABur,AMar,FMao|Bre,Mar,Par"
    assert answer.body["next"]["phase"] == "F1901M"
    state = engine.state_from_dict(answer.body["next"]["state"])
    assert engine.format_compact_state(state) == answer.body["next"]["compact"]


def test_json_state_in_gives_the_same_answer_as_compact(api: InProcessApi) -> None:
    state = engine.parse_compact_state(FRANCE_START, CLASSICAL)
    orders = {"FRANCE": ["A PAR - BUR", "F BRE - MAO"]}
    by_json = api.call("POST", "/adjudicate", {"state": engine.state_to_dict(state), "orders": orders})
    by_compact = api.call("POST", "/adjudicate", {"compact": FRANCE_START, "orders": orders})
    assert by_json.status == by_compact.status == 200
    assert by_json.body == by_compact.body


def test_every_order_gets_its_validation_answer_and_illegal_ones_are_voided(api: InProcessApi) -> None:
    # Given an illegal move (not adjacent), a foreign unit, an unreadable order and a legal one
    orders = {"FRANCE": ["A PAR - MUN", "A BER - KIE", "A PAR JUMPS", "F BRE - MAO"]}
    answer = api.call(
        "POST", "/adjudicate", {"compact": FRANCE_START + " Germany:ABer|Ber", "orders": orders}
    )
    assert answer.status == 200, answer.raw
    codes = [(o["ok"], o["code"], o["engine_code"]) for o in answer.body["orders"]]
    assert codes == [
        (False, "ILLEGAL_ORDER", "NOT_ADJACENT"),
        (False, "ILLEGAL_ORDER", "NOT_YOUR_UNIT"),
        (False, "UNPARSEABLE_ORDER", None),
        (True, None, None),
    ]
    results = {r["order_str"]: r for r in answer.body["resolution"]["results"]}
    assert results["A PAR - MUN"]["result"] == "VOID"  # DATC 4.E.1: illegal orders are ignored
    assert results["A PAR - MUN"]["reason"]["code"]
    assert results["F BRE - MAO"]["result"] == "OK"


def test_the_1900_variant(api: InProcessApi) -> None:
    the_map = engine.load_map("1900")
    start = engine.initial_state(the_map)
    menus = api.call(
        "POST", "/adjudicate/legal_orders", {"variant": "1900", "state": engine.state_to_dict(start)}
    )
    assert menus.status == 200, menus.raw
    assert sorted(menus.body["legal_orders"]) == sorted(the_map.power_ids)
    power = sorted(the_map.power_ids)[0]
    first = menus.body["legal_orders"][power][0]
    answer = api.call(
        "POST",
        "/adjudicate",
        {"variant": "1900", "state": engine.state_to_dict(start), "orders": {power: [first]}},
    )
    assert answer.status == 200, answer.raw
    assert answer.body["variant"] == "1900" and answer.body["orders"][0]["ok"]
    game, _ = engine.Game(map=the_map, state=start).adjudicate(
        {power: [engine.parse_order(first, power=power, state=start, map=the_map)]}
    )
    assert answer.body["next"]["state"] == engine.state_to_dict(game.current)


def test_both_rulebooks_answer_as_the_engine_does(api: InProcessApi) -> None:
    """DATC 4.A.3 (6.G.8@fallback style): a failed convoy to an adjacent province falls back
    to the land route under 2000 and not under 2023; the sandbox plays the rulebook named."""
    fallback = [c for c in EXTRA if api_rules(c) == "2000"]
    assert fallback
    for case in fallback:
        run_case_over_api(case, _send(api))
    # Given France convoys A PIC to adjacent BEL with its own fleet, which England dislodges
    body = {
        "compact": "France:APic,FEng|Par England:FLon,FNth|Lon",
        "orders": {
            "FRANCE": ["A PIC - BEL", "F ENG C A PIC - BEL"],
            "ENGLAND": ["F LON - ENG", "F NTH S F LON - ENG"],
        },
    }
    where = {}
    for rules in ("2000", "2023"):
        answer = api.call("POST", "/adjudicate", {**body, "rules": rules})
        assert answer.status == 200 and answer.body["rules"] == rules, answer.raw
        where[rules] = {
            u["location"] for u in answer.body["next"]["state"]["units"] if u["power"] == "FRANCE"
        }
    # Then 2000 falls back to the land route; 2023 does not
    assert where == {"2000": {"BEL"}, "2023": {"PIC"}}


def test_legal_orders_are_the_engine_menus(api: InProcessApi) -> None:
    start = engine.initial_state(CLASSICAL)
    answer = api.call(
        "POST",
        "/adjudicate/legal_orders",
        {"state": engine.state_to_dict(start), "powers": ["france"], "include_compact": True},
    )
    assert answer.status == 200, answer.raw
    menu = sorted(engine.format_order(o) for o in engine.legal_orders(start, CLASSICAL, "FRANCE"))
    assert answer.body["legal_orders"] == {"FRANCE": menu}
    assert "APar-Bur" in answer.body["legal_orders_compact"]["FRANCE"]


# --- bad input: stable codes, never a 5xx -------------------------------------------------------

BAD = [
    ({"orders": {}}, 422, "BAD_POSITION"),  # no position at all
    ({"compact": "France:APar", "state": {}}, 422, "BAD_POSITION"),  # both
    ({"compact": "France:AXyz"}, 422, "BAD_POSITION"),  # no such province
    ({"compact": "Narnia:APar"}, 422, "BAD_POSITION"),  # no such power
    ({"compact": "France:FPar"}, 422, "BAD_POSITION"),  # a fleet inland
    ({"compact": "France:APar,APar"}, 422, "BAD_POSITION"),  # two units in one province
    ({"compact": "France:APar", "phase": "X1901M"}, 422, "BAD_POSITION"),
    ({"compact": "France:APar", "phase": "S19010M"}, 422, "BAD_POSITION"),
    ({"compact": "France:ABur*Mun Germany:ABur", "phase": "S1901M"}, 422, "BAD_POSITION"),
    ({"state": {"year": "1901"}}, 422, "BAD_POSITION"),
    (
        {
            "state": {
                "year": 1901,
                "season": "SPRING",
                "phase_type": "MOVEMENT",
                "units": [{"kind": "A", "power": "FRANCE", "location": "MAO"}],
            }
        },
        422,
        "BAD_POSITION",
    ),
    (
        {
            "state": {
                "year": 1901,
                "season": "SPRING",
                "phase_type": "MOVEMENT",
                "ownership": {"PAR": "NARNIA"},
            }
        },
        422,
        "BAD_POSITION",
    ),
    (
        {
            "state": {
                "year": 1901,
                "season": "SPRING",
                "phase_type": "MOVEMENT",
                "ownership": {"NTH": "FRANCE"},
            }
        },
        422,
        "BAD_POSITION",
    ),  # a sea province owned
    (
        {"state": engine.state_to_dict(engine.initial_state(CLASSICAL)), "phase": "S1901M"},
        422,
        "BAD_POSITION",
    ),
    ({"compact": "France:APar", "variant": "narnia"}, 400, "UNKNOWN_VARIANT"),
    ({"compact": "France:APar", "rules": "1066"}, 400, "UNKNOWN_VARIANT"),
    ({"compact": "France:APar", "orders": {"NARNIA": ["A PAR H"]}}, 400, "UNKNOWN_POWER"),
    ({"compact": "France:APar", "orders": {"FRANCE": ["A PAR H"] * 65}}, 422, "VALIDATION_ERROR"),
    ({"compact": "France:APar", "orders": {"FRANCE": "A PAR H"}}, 422, "VALIDATION_ERROR"),
    ({"compact": "France:APar", "extra": 1}, 422, "VALIDATION_ERROR"),
]


@pytest.mark.parametrize(("body", "status", "code"), BAD, ids=[str(i) for i in range(len(BAD))])
def test_bad_positions_get_stable_4xx_codes(
    api: InProcessApi, body: dict[str, Any], status: int, code: str
) -> None:
    for path in ("/adjudicate", "/adjudicate/legal_orders"):
        sent = body if path == "/adjudicate" else {k: v for k, v in body.items() if k != "orders"}
        answer = api.call("POST", path, sent)
        if path.endswith("legal_orders") and "orders" in body and code != "BAD_POSITION":
            continue  # the orders were the fault, and legal_orders takes none
        assert (answer.status, answer.body["code"]) == (status, code), (path, answer.raw)


def test_a_body_over_the_size_limit_is_refused_unread(api: InProcessApi) -> None:
    huge = {"compact": "France:APar " + "x" * 70_000}
    assert api.call("POST", "/adjudicate", huge).status == 413


# --- hypothesis: no input crashes it ------------------------------------------------------------

PROVINCES = sorted(CLASSICAL.provinces)
WORDS = st.sampled_from(PROVINCES + ["STP/NC", "SPA/SC", "BUL/EC", "XXX", "", "par"])
POWERS = st.sampled_from([*sorted(CLASSICAL.power_ids), "NARNIA", "france", ""])
UNITS = st.fixed_dictionaries({"kind": st.sampled_from(["A", "F", "X"]), "power": POWERS, "location": WORDS})
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
STATES = st.fixed_dictionaries(
    {
        "year": st.integers(-5, 3000) | st.just(1901),
        "season": st.sampled_from(["SPRING", "FALL", "WINTER", "X"]),
        "phase_type": st.sampled_from(["MOVEMENT", "RETREAT", "ADJUSTMENT", "?"]),
        "units": st.lists(UNITS, max_size=6),
    },
    optional={
        "ownership": st.dictionaries(WORDS, POWERS, max_size=4),
        "dislodged": st.lists(
            st.fixed_dictionaries(
                {"unit": UNITS, "attacker_origin": WORDS | st.none(), "retreats": st.lists(WORDS, max_size=3)}
            ),
            max_size=2,
        ),
        "contested": st.lists(WORDS, max_size=2),
        "status": st.sampled_from(["ACTIVE", "COMPLETED", "?"]),
        "winner": POWERS | st.none(),
        "junk": JSONISH,
    },
)
COMPACT = st.lists(
    st.sampled_from(
        [
            "France:",
            "Germany:",
            "APar",
            "FBre",
            "ABur*Mun",
            "*",
            ",",
            "|",
            "Par",
            " ",
            "FSpa(sc)",
            "AMun",
            "Russia:|War",
            "x",
        ]
    ),
    max_size=12,
).map("".join)
ORDER_TEXT = st.lists(
    st.sampled_from(
        [
            "A",
            "F",
            "PAR",
            "BUR",
            "-",
            "S",
            "C",
            "H",
            "R",
            "D",
            "VIA",
            "BUILD",
            "WAIVE",
            "MUN",
            "SPA/SC",
            "APar-Bur",
            "FBreH",
            "*",
        ]
    ),
    max_size=7,
).map(" ".join)
POSITION_FIELDS = {
    "variant": st.sampled_from(["classical", "classical", "1900", "x"]),
    "rules": st.sampled_from(["2023", "2000", "y"]),
    "phase": st.sampled_from(["S1901M", "F1901R", "W1901A", "F1905M", "Z", "S0M"]),
    "include_compact": st.booleans(),
}
SPOTS = sorted(
    [("A", p) for p in CLASSICAL.army_provinces]
    + [("F", f"{p}/{c}" if c else p) for p, c in CLASSICAL.fleet_spots]
)
REAL_POWERS = st.sampled_from(sorted(CLASSICAL.power_ids))


@st.composite
def plausible_states(draw: st.DrawFn) -> dict[str, Any]:
    """Positions a map allows (units where their kinds stand, real powers), so that most
    requests reach the adjudicator; phases and dislodgements are still drawn at random."""
    spots = draw(st.lists(st.sampled_from(SPOTS), max_size=12, unique_by=lambda s: s[1].split("/")[0]))
    units = [{"kind": k, "power": draw(REAL_POWERS), "location": loc} for k, loc in spots]
    season = draw(st.sampled_from(["SPRING", "FALL", "WINTER"]))
    phase_type = draw(st.sampled_from(["MOVEMENT", "RETREAT", "ADJUSTMENT"]))
    dislodged = []
    if phase_type == "RETREAT" and units:
        beaten = draw(st.sampled_from(units))
        others = [u for u in units if u is not beaten]
        if others:
            dislodged = [
                {
                    "unit": beaten,
                    "attacker_origin": draw(WORDS | st.none()),
                    "retreats": draw(st.lists(st.sampled_from(PROVINCES), max_size=3, unique=True)),
                }
            ]
            units = others
            beaten_at = beaten["location"].split("/")[0]
            units[0] = (
                {**units[0], "location": beaten_at}
                if units[0]["kind"] == "A" and (beaten_at in CLASSICAL.army_provinces)
                else units[0]
            )
    owned = draw(st.dictionaries(st.sampled_from(sorted(CLASSICAL.supply_centers)), REAL_POWERS, max_size=18))
    return {
        "year": draw(st.integers(1901, 1910)),
        "season": season,
        "phase_type": phase_type,
        "units": units,
        "ownership": owned,
        "dislodged": dislodged,
    }


def _order_texts(state: dict[str, Any]) -> st.SearchStrategy[str]:
    here = [u["location"] for u in state.get("units") or [] if isinstance(u, dict)] or ["PAR"]
    where = st.sampled_from(here + PROVINCES[:20])
    kind = st.sampled_from(["A", "F"])
    return st.one_of(
        st.tuples(kind, where).map(lambda t: f"{t[0]} {t[1]} H"),
        st.tuples(kind, where, where).map(lambda t: f"{t[0]} {t[1]} - {t[2]}"),
        st.tuples(kind, where, kind, where, where).map(lambda t: f"{t[0]} {t[1]} S {t[2]} {t[3]} - {t[4]}"),
        st.tuples(kind, where, kind, where, where).map(lambda t: f"{t[0]} {t[1]} C {t[2]} {t[3]} - {t[4]}"),
        st.tuples(kind, where, where).map(lambda t: f"{t[0]} {t[1]} R {t[2]}"),
        st.tuples(kind, where).map(lambda t: f"BUILD {t[0]} {t[1]}"),
        st.tuples(kind, where).map(lambda t: f"{t[0]} {t[1]} D"),
        st.just("WAIVE"),
        ORDER_TEXT,
    )


@st.composite
def plausible_requests(draw: st.DrawFn) -> dict[str, Any]:
    state = draw(plausible_states())
    orders = {
        p: draw(st.lists(_order_texts(state), max_size=5)) for p in draw(st.lists(REAL_POWERS, max_size=3))
    }
    return {
        "state": state,
        "orders": orders,
        "rules": draw(st.sampled_from(["2023", "2000"])),
        "include_compact": draw(st.booleans()),
    }


POSITIONS = st.one_of(
    st.fixed_dictionaries({"state": STATES}),
    st.fixed_dictionaries({"state": JSONISH}),
    st.fixed_dictionaries({"compact": COMPACT}),
    st.just({}),
)
ADJUDICATE = st.tuples(
    POSITIONS,
    st.fixed_dictionaries(
        {},
        optional={
            **POSITION_FIELDS,
            "orders": st.dictionaries(POWERS, st.lists(ORDER_TEXT, max_size=4), max_size=3),
            "notation": st.sampled_from(["standard", "compact"]),
        },
    ),
).map(lambda pair: {**pair[0], **pair[1]})
LEGAL = st.tuples(
    POSITIONS, st.fixed_dictionaries({}, optional={**POSITION_FIELDS, "powers": st.lists(POWERS, max_size=3)})
).map(lambda pair: {**pair[0], **pair[1]})
BODIES = st.one_of(
    ADJUDICATE.map(lambda b: ("/adjudicate", b)),
    LEGAL.map(lambda b: ("/adjudicate/legal_orders", b)),
    plausible_requests().map(lambda b: ("/adjudicate", b)),
    plausible_requests().map(
        lambda b: ("/adjudicate/legal_orders", {k: v for k, v in b.items() if k != "orders"})
    ),
)


@pytest.fixture(scope="module")
def module_api() -> Iterator[InProcessApi]:
    yield from in_process_api()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(request=BODIES)
def test_no_input_crashes_it(module_api: InProcessApi, request: tuple[str, dict[str, Any]]) -> None:
    path, body = request
    answer = module_api.call("POST", path, body)
    assert answer.status in (200, 400, 422), answer.raw
    if answer.status != 200:
        assert set(answer.body) >= {"code", "message"} and answer.body["code"] != "INTERNAL"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_legal_orders_of_a_position_adjudicate(module_api: InProcessApi, data: st.DataObject) -> None:
    """Orders drawn from the answer's own menus always adjudicate, and the next state reads back."""
    state = engine.initial_state(CLASSICAL)
    for _ in range(3):
        body = {"state": engine.state_to_dict(state)}
        menus = module_api.call("POST", "/adjudicate/legal_orders", body).body["legal_orders"]
        orders = {p: data.draw(st.lists(st.sampled_from(m), max_size=4)) for p, m in menus.items() if m}
        answer = module_api.call("POST", "/adjudicate", {**body, "orders": orders})
        assert answer.status == 200, answer.raw
        state = engine.state_from_dict(answer.body["next"]["state"])


# --- the rate limit ------------------------------------------------------------------------------


class MemoryRateCounter:
    """The port's contract in memory (the DynamoDB adapter: tests/infra/test_rate_counter.py)."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, int], int] = {}

    def take(self, key: str, window_start: int, limit: int, expires_at: int) -> bool:
        n = self.counts.get((key, window_start), 0)
        if n >= limit:
            return False
        self.counts[(key, window_start)] = n + 1
        return True


def _from(ip: str, body: dict[str, Any]) -> tuple[int, dict[str, str], Any]:
    from composition import api as handler

    event = to_event(
        "POST", "/adjudicate", {"content-type": "application/json"}, json.dumps(body).encode(), ip
    )
    result = handler.lambda_handler(event, LocalContext())
    return int(result["statusCode"]), dict(result["headers"]), json.loads(result["body"])


def test_the_rate_limit_is_per_caller(api: InProcessApi) -> None:
    # Given a limit of 3 sandbox requests a minute and the counters in memory
    services = wiring.services()
    wiring.override(
        dataclasses.replace(
            services,
            rate_counter=MemoryRateCounter(),
            settings=services.settings._replace(sandbox_rate_limit=3),
        )
    )
    body = {"compact": FRANCE_START}
    # When one caller sends four
    statuses = [_from("198.51.100.7", body)[0] for _ in range(3)]
    status, headers, refused = _from("198.51.100.7", body)
    # Then the fourth is refused with a Retry-After, and another caller is not affected
    assert statuses == [200, 200, 200]
    assert (status, refused["code"]) == (429, "RATE_LIMITED")
    assert 1 <= int(headers["Retry-After"]) <= 60
    assert _from("203.0.113.9", body)[0] == 200
    # and a new window starts afresh
    api.clock.at += timedelta(seconds=61)
    assert _from("198.51.100.7", body)[0] == 200
