"""Tournament seeding, scoring and standings (issue 34 item 7): 14 players over 2 rounds of 2
boards of 7, seeded by rating with the fewest repeat pairings, each board played by the engine
(scripted orders: ``engine.simple_orders``) to a year limit and scored under C-Diplo."""

from __future__ import annotations

from itertools import combinations

import pytest

import engine
from community.tournament import (
    BoardResult,
    Round,
    board_points,
    meetings,
    repeats,
    seed_round,
    standings,
)

PLAYERS = [f"p{i:02d}" for i in range(1, 15)]
RATINGS = {p: 40.0 - i * 2.5 for i, p in enumerate(PLAYERS)}  # p01 strongest
MAP = engine.load_map("classical")


def play_board(round_number: int, board_number: int, seats: dict[str, str],
               last_year: int = 1903) -> BoardResult:
    """The board's game played by the engine to the end of ``last_year``; a year-limit draw."""
    state = engine.initial_state(MAP)
    while state.year <= last_year and state.status is engine.GameStatus.ACTIVE:
        seed = f"r{round_number}b{board_number}:{state.phase_name}"
        orders = {p: engine.simple_orders(state, MAP, p, seed)
                  for p in engine.powers_with_orders_to_give(state, MAP)}
        game, _ = engine.Game(map=MAP, state=state).adjudicate(orders)
        assert game.state is not None
        state = game.state
    counts = {p: int(state.center_counts.get(p, 0)) for p in MAP.power_ids}
    survivors = sorted(p for p in MAP.power_ids if counts[p] or any(u.power == p for u in state.units))
    kind, winners = ("solo", [state.winner]) if state.winner else ("year_limit", survivors)
    result = {"kind": kind, "winners": winners, "centers": counts}
    board = next(b for b in ROUNDS[round_number - 1].boards if b.number == board_number)
    return BoardResult(board, seats, result)


def seats_of(players: tuple[str, ...]) -> dict[str, str]:
    return dict(zip(MAP.power_ids, players, strict=True))


ROUND_1 = seed_round(1, PLAYERS, RATINGS)
ROUND_2 = seed_round(2, PLAYERS, RATINGS, history=[ROUND_1])
ROUNDS = [ROUND_1, ROUND_2]


def fewest_possible_repeats(history: list[Round]) -> int:
    """Brute force over every split of the 14 into two boards of 7."""
    met = meetings(history)
    return min(repeats([first, [p for p in PLAYERS if p not in first]], met)
               for first in (list(c) for c in combinations(PLAYERS, 7)) if PLAYERS[0] in first)


def test_round_one_deals_the_ratings_evenly() -> None:
    assert [len(b.players) for b in ROUND_1.boards] == [7, 7]
    assert sorted(p for b in ROUND_1.boards for p in b.players) == PLAYERS
    means = [sum(RATINGS[p] for p in b.players) / 7 for b in ROUND_1.boards]
    assert abs(means[0] - means[1]) <= 2.5 / 7 * 1.0001  # a snake over 14 leaves one step at most
    assert {"p01", "p02"} not in [set(b.players) & {"p01", "p02"} for b in ROUND_1.boards]  # top two apart


def test_round_two_keeps_the_fewest_repeat_pairings_possible() -> None:
    got = repeats([b.players for b in ROUND_2.boards], meetings([ROUND_1]))
    assert got == fewest_possible_repeats([ROUND_1]) == 18  # 4+3 from each round-one board: 6+3 a board
    for board in ROUND_2.boards:
        from_first = sorted(len(set(board.players) & set(b.players)) for b in ROUND_1.boards)
        assert from_first == [3, 4]


def test_a_round_with_no_history_has_no_repeats_and_seeding_is_deterministic() -> None:
    assert repeats([b.players for b in ROUND_1.boards], meetings([])) == 0
    assert seed_round(2, list(reversed(PLAYERS)), RATINGS, history=[ROUND_1]) == ROUND_2


def test_fourteen_players_two_rounds_played_scored_and_standing() -> None:
    played = [play_board(r.number, b.number, seats_of(b.players)) for r in ROUNDS for b in r.boards]
    table = standings(played, "c_diplo", PLAYERS)
    assert sorted(s.player for s in table) == PLAYERS and all(s.boards == 2 for s in table)
    per_player: dict[str, float] = {}
    for board in played:
        points = board_points(board, "c_diplo")
        centers = board.result["centers"]
        assert isinstance(centers, dict)
        owned = sum(int(c) for c in centers.values())
        assert sum(points.values()) == pytest.approx(7 + owned + 59)  # C-Diplo's 100, less unowned centres
        for player, value in points.items():
            per_player[player] = per_player.get(player, 0.0) + value
    for row in table:
        assert row.total == pytest.approx(per_player[row.player], abs=1e-3)
    assert [s.total for s in table] == sorted((s.total for s in table), reverse=True)
    assert table[0].rank == 1 and sum(s.total for s in table) == pytest.approx(sum(per_player.values()))


def test_ties_share_a_rank_and_bad_input_is_refused() -> None:
    board = ROUND_1.boards[0]
    seats = seats_of(board.players)
    result = {"kind": "draw", "winners": sorted(MAP.power_ids), "centers": dict.fromkeys(MAP.power_ids, 4)}
    table = standings([BoardResult(board, seats, result)], "draw_size")
    assert {s.rank for s in table} == {1} and table[0].total == pytest.approx(100 / 7, abs=1e-3)
    with pytest.raises(ValueError, match="do not fill boards of 7"):
        seed_round(1, PLAYERS[:13], RATINGS)
    with pytest.raises(ValueError, match="listed twice"):
        seed_round(1, PLAYERS[:13] + ["p01"], RATINGS)
    with pytest.raises(ValueError, match="not its players"):
        board_points(BoardResult(board, seats_of(ROUND_1.boards[1].players), result), "c_diplo")
