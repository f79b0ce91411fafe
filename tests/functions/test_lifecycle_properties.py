"""Issue 12 "Done when": random games with random voting, leaving and replacement.

Whatever happens: a COMPLETED game accepts no orders or votes, its result agrees with
the centre counts of the final position, and a seat has at most one live token (the
last one issued, while the seat is taken).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from functions import errors
from functions.usecases.game import LifecycleSettings, state_of
from functions.usecases.game.results import scores, survivors
from functions.usecases.games import CreateGame, create_game
from functions.usecases.players import SCHEDULER, Actor, identify
from functions.usecases.seats import cast_vote, join_game, leave_game, open_seat
from functions.usecases.turns import process_turn, submit_orders
from testkit.fakes import FakeClock, InMemoryGameStore
from tests.functions.conftest import POWERS

CREATOR = Actor("creator")
OPERATOR = Actor("operator")  # processes by hand whenever it likes (issue 11: the creator may not)
CLASSICAL = engine.load_map("classical")
ACTIONS = ("orders", "orders", "orders", "draw", "concede", "leave", "join", "open", "process", "process",
           "table")  # table: every other seated power votes draw (flag) or concedes (not flag) too

steps = st.lists(st.tuples(st.sampled_from(ACTIONS), st.sampled_from(POWERS), st.booleans()),
                 min_size=10, max_size=80)
game_settings = st.fixed_dictionaries({
    "civil_disorder_after": st.integers(0, 2),
    "max_year": st.sampled_from([None, 1901, 1902, 1903]),
    "draw_votes": st.sampled_from(["secret", "public"]),
})


class Run:
    def __init__(self, lifecycle: dict[str, Any]) -> None:
        self.store, self.clock = InMemoryGameStore(), FakeClock()
        created = create_game(self.store, self.clock, CreateGame(
            phase_seconds={"MOVEMENT": 60}, lifecycle=LifecycleSettings(**lifecycle)))
        self.game_id = created.game_id
        self.issued: dict[str, list[str]] = {p: [] for p in POWERS}
        for power in POWERS:
            self.issued[power].append(join_game(self.store, self.clock, self.game_id, power).token)

    def step(self, action: str, power: str, flag: bool) -> None:
        game = self.store.load(self.game_id)
        done = game.status == "COMPLETED"
        try:  # the caller is whoever the power's last token stands for, as over HTTP
            me = identify(game, self.issued[power][-1])
        except errors.NotAPlayer:
            me = Actor("anonymous")
        if me.kind == "anonymous" and action in ("orders", "draw", "concede", "leave"):
            return
        if action == "table":
            for other in sorted(set(game.players) - {power}):
                self.step("draw" if flag else "concede", other, True)
            return
        try:
            if action == "orders":
                seed = f"{self.game_id}:{game.phase}:{flag}"
                chosen = engine.simple_orders(state_of(game), CLASSICAL, power, seed)
                texts = [engine.format_order(o) for o in chosen]
                submit_orders(self.store, self.clock, self.game_id, me, texts)
            elif action in ("draw", "concede"):
                cast_vote(self.store, self.clock, self.game_id, me,
                          draw=flag if action == "draw" else None,
                          concede=flag if action == "concede" else None)
            elif action == "leave":
                leave_game(self.store, self.clock, self.game_id, me)
            elif action == "open":
                open_seat(self.store, self.clock, self.game_id, CREATOR, power)
            elif action == "join":
                self.issued[power].append(join_game(self.store, self.clock, self.game_id, power).token)
            else:
                process_turn(self.store, self.clock, self.game_id, SCHEDULER if flag else OPERATOR,
                             expected_phase=self.store.load(self.game_id).phase)
        except errors.GameNotActive:
            assert done
            return
        except (errors.Forbidden, errors.PowerTaken):  # an eliminated power's vote; a taken seat
            assert not done
            return
        assert not done, f"a COMPLETED game accepted {action}"

    def check(self) -> None:
        game = self.store.load(self.game_id)
        for power, tokens in self.issued.items():
            live = []
            for token in tokens:
                try:
                    if identify(game, token) == Actor("player", power):
                        live.append(token)
                except errors.NotAPlayer:
                    pass
            assert len(live) <= 1, power
            if power in game.players:
                assert live == [tokens[-1]], power
        if game.status == "COMPLETED":
            self._check_result(game)

    def _check_result(self, game: Any) -> None:
        result = game.result
        assert result is not None
        state = state_of(game)
        counts = {p: state.center_counts.get(p, 0) for p in POWERS}
        assert result["centers"] == counts
        if result["kind"] == "solo":
            assert counts[result["winners"][0]] >= CLASSICAL.victory.solo_supply_centers
        elif result["kind"] in ("draw", "year_limit"):
            assert result["winners"] == survivors(state, CLASSICAL)
        elif result["kind"] == "concession":
            assert len(result["winners"]) == 1 and result["winners"][0] in survivors(state, CLASSICAL)
        for system, points in scores(result).items():
            total = sum(points.values())
            assert abs(total - (0 if result["kind"] == "abandoned" else 100)) < 0.01, system
            assert {p for p, v in points.items() if v} <= set(result["winners"])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_settings, steps)
def test_random_games_with_votes_leaving_and_replacement(lifecycle: dict[str, Any],
                                                          plan: list[tuple[str, str, bool]]) -> None:
    run = Run(lifecycle)
    for action, power, flag in plan:
        run.step(action, power, flag)
        run.check()
    # However it went, once over the game refuses orders and votes from anyone
    game = run.store.load(run.game_id)
    if game.status == "COMPLETED":
        for power in sorted(game.players):
            seat = Actor("player", power)
            for call in (lambda a=seat: submit_orders(run.store, run.clock, run.game_id, a, []),
                         lambda a=seat: cast_vote(run.store, run.clock, run.game_id, a, draw=True)):
                try:
                    call()
                except errors.GameNotActive:
                    continue
                raise AssertionError("a COMPLETED game accepted a change")
