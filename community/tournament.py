"""Tournaments: rounds of boards, seeding players into boards, scoring and standings (issue 34).

An event is a sequence of rounds; a round seats every player at one board (a board is one
game). Pure functions: the use cases will store the event and start each board's game.

Seeding a round (``seed_round``):
1. Players sorted by rating (best first; ties by id) are dealt round the boards in a snake
   (1 2 3 3 2 1 ...), so every board gets a like share of strong and weak players.
2. Then pairs of players on different boards are swapped while a swap lowers the cost:
   first the number of pairs of players who already met at a board of an earlier round,
   then how far the boards' mean ratings spread. Repeats are avoided where possible, and
   where they cannot be (14 players, two rounds of two boards of 7: every round-two board
   holds at least 4 players of one round-one board) the fewest are kept.
A round needs a multiple of the board size; who sits out (a bye) is the director's choice
before seeding, not the seeding's.

Scoring and standings (``board_points``, ``standings``): each board's result is scored
under the event's system from ``engine.scoring``; a player's total is the sum over the
rounds played, ranked by total, then by best single board, then by id (equal on all three
share a rank).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.scoring import Outcome, scoring_system


@dataclass(frozen=True)
class Board:
    round: int
    number: int
    players: tuple[str, ...]  # sorted


@dataclass(frozen=True)
class Round:
    number: int
    boards: tuple[Board, ...]


def meetings(history: Iterable[Round]) -> Counter[frozenset[str]]:
    """How often each pair of players shared a board."""
    met: Counter[frozenset[str]] = Counter()
    for round_ in history:
        for board in round_.boards:
            met.update(frozenset(pair) for pair in combinations(board.players, 2))
    return met


def repeats(boards: Iterable[Sequence[str]], met: Mapping[frozenset[str], int]) -> int:
    """Pairs seated together again (a pair that met twice before counts twice)."""
    return sum(met.get(frozenset(pair), 0) for board in boards for pair in combinations(board, 2))


def _spread(boards: Sequence[Sequence[str]], ratings: Mapping[str, float]) -> float:
    means = [sum(ratings.get(p, 0.0) for p in board) / len(board) for board in boards]
    return max(means) - min(means)


def _cost(boards: Sequence[Sequence[str]], ratings: Mapping[str, float],
          met: Mapping[frozenset[str], int]) -> tuple[int, float]:
    return repeats(boards, met), round(_spread(boards, ratings), 9)


def _snake(players: Sequence[str], count: int) -> list[list[str]]:
    boards: list[list[str]] = [[] for _ in range(count)]
    for i, player in enumerate(players):
        lap, at = divmod(i, count)
        boards[at if lap % 2 == 0 else count - 1 - at].append(player)
    return boards


def _improve(boards: list[list[str]], ratings: Mapping[str, float],
             met: Mapping[frozenset[str], int]) -> list[list[str]]:
    """Swap players between boards while a swap lowers the cost (first improvement, in a
    fixed order, so the same input seeds the same round)."""
    best = _cost(boards, ratings, met)
    improved = True
    while improved:
        improved = False
        for a, b in combinations(range(len(boards)), 2):
            for i in range(len(boards[a])):
                for j in range(len(boards[b])):
                    boards[a][i], boards[b][j] = boards[b][j], boards[a][i]
                    cost = _cost(boards, ratings, met)
                    if cost < best:
                        best, improved = cost, True
                    else:
                        boards[a][i], boards[b][j] = boards[b][j], boards[a][i]
    return boards


def seed_round(number: int, players: Sequence[str], ratings: Mapping[str, float], *,
               board_size: int = 7, history: Sequence[Round] = ()) -> Round:
    """Round ``number``'s boards: by rating, balanced, with the fewest repeat pairings."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if not players or len(players) % board_size:
        raise ValueError(f"{len(players)} players do not fill boards of {board_size}")
    ordered = sorted(players, key=lambda p: (-ratings.get(p, 0.0), p))
    boards = _improve(_snake(ordered, len(players) // board_size), ratings, meetings(history))
    return Round(number, tuple(Board(number, n, tuple(sorted(b))) for n, b in enumerate(boards, start=1)))


@dataclass(frozen=True)
class BoardResult:
    """A finished board: its seats (power -> player) and its game's result record."""

    board: Board
    seats: Mapping[str, str]
    result: Mapping[str, object]


def board_points(played: BoardResult, system: str) -> dict[str, float]:
    """player -> points of one board under the scoring system called ``system``."""
    if sorted(played.seats.values()) != sorted(played.board.players):
        raise ValueError(f"board {played.board.round}.{played.board.number}: the seats are not its players")
    points = scoring_system(system).score(Outcome.from_result(played.result))
    return {player: points[power] for power, player in played.seats.items()}


@dataclass(frozen=True)
class Standing:
    rank: int
    player: str
    total: float
    best: float
    boards: int


def standings(played: Iterable[BoardResult], system: str, players: Iterable[str] = ()) -> list[Standing]:
    """Every player's total over the boards played (players with none score 0), ranked."""
    scores: dict[str, list[float]] = {p: [] for p in players}
    for board in played:
        for player, points in board_points(board, system).items():
            scores.setdefault(player, []).append(points)
    rows = sorted(((round(sum(s), 3), max(s, default=0.0), p, len(s)) for p, s in scores.items()),
                  key=lambda row: (-row[0], -row[1], row[2]))
    out: list[Standing] = []
    for i, (total, best, player, count) in enumerate(rows):
        tied = out and (out[-1].total, out[-1].best) == (total, best)
        out.append(Standing(out[-1].rank if tied else i + 1, player, total, best, count))
    return out
