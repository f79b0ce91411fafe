"""Player ratings: one OpenSkill rating per player and variant, updated once per finished game.

Why OpenSkill (``openskill`` on PyPI, the Weng-Lin Bayesian model, Plackett-Luce variant)
and not TrueSkill:

- licence and maintenance: ``openskill`` is MIT, released 6.2.0 in January 2026 and
  maintained; the ``trueskill`` package's last release, 0.4.5, is from 2018, and TrueSkill
  itself is Microsoft's patented, trademarked system.
- the game: Diplomacy is a free-for-all of seven with ties (a draw is a tie of its
  members). ``openskill``'s ``rate`` takes any number of one-player teams with tied ranks
  directly; Weng and Lin designed Plackett-Luce for exactly such many-player orderings.
- the package: no dependencies of its own, type hints shipped (``py.typed``), pure values
  (``rate`` returns new ratings, the inputs stay as they were).
- per variant: nothing library-specific; a rating is keyed by (player, variant).

How a game orders its players (equal ranks tie):

- solo or concession: the winner; then the other survivors; then the eliminated.
- draw or year limit: the draw's members (all survivors); then the eliminated. A two-way
  draw thus lifts its members more than a five-way draw: fewer tie with them, more lose.
- after all of them, the players who left the game or were put in civil disorder
  (``departed``): leaving is worse than being eliminated.

Unrated games change nothing: a demo, a game with dummy powers, an imported game, an
abandoned game, and a game with fewer than two rated players.

Idempotent by design. A rating carries the id of the game that last changed it
(``last_game``), and a ``Ledger`` (the ratings plus the set of games already rated) applies
a game only if its id is not in the set. The storage this maps onto: one write-once item
per rated game (keyed by game id, put with "attribute_not_exists") committed in one
transaction with each player's rating item, conditional on that item's ``last_game``
being the one the update was computed from. A second application of the same game fails
the first condition and changes nothing; a race with another game fails the second and
is recomputed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from openskill.models import PlackettLuce

from engine.scoring import SOLE_WINNER, Outcome

_MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300 (the model's defaults)
MU = float(_MODEL.mu)
SIGMA = float(_MODEL.sigma)


@dataclass(frozen=True)
class Rating:
    """A player's rating in one variant; ``ordinal`` (mu - 3 sigma) is what a leaderboard sorts by."""

    player: str
    variant: str
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    last_game: str | None = None  # the game whose update produced this rating

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class FinishedGame:
    """What rating needs of a finished game.

    ``result``: the stored result record (``kind``, ``winners``, ``centers``).
    ``players``: power -> player holding the seat at the end (an open seat is left out).
    ``departed``: player -> power for players who left the game or fell into civil disorder.
    ``survivors``: powers still on the board; by default the draw's members, or after a solo
    the powers holding a centre (the result record keeps no units).
    """

    game_id: str
    variant: str
    result: Mapping[str, object]
    players: Mapping[str, str]
    departed: Mapping[str, str] = field(default_factory=dict)
    survivors: frozenset[str] | None = None
    demo: bool = False
    dummies: tuple[str, ...] = ()
    imported: bool = False


@dataclass(frozen=True)
class RatingChange:
    player: str
    rank: int  # 1 is best; equal ranks tied
    before: Rating
    after: Rating


@dataclass(frozen=True)
class RatingUpdate:
    """Everything one game changes: the write-once record of the game's rating."""

    game_id: str
    variant: str
    changes: tuple[RatingChange, ...]


def unrated_reason(game: FinishedGame) -> str | None:
    """Why ``game`` does not count, or None if it does."""
    if game.demo:
        return "a demo game"
    if game.dummies:
        return "played with dummy powers"
    if game.imported:
        return "an imported game"
    if game.result.get("kind") == "abandoned":
        return "an abandoned game"
    if len(_seated(game)) < 2:
        return "fewer than two rated players"
    return None


def _seated(game: FinishedGame) -> dict[str, str]:
    """player -> power of everyone the game rates (a player who left and came back as
    another power counts once, as the power held at the end)."""
    seated = {player: power for power, player in game.players.items()}
    if len(seated) != len(game.players):
        raise ValueError(f"game {game.game_id}: one player holds two powers")
    departed = {p: power for p, power in game.departed.items() if p not in seated}
    return {**seated, **departed}


def ranks(game: FinishedGame) -> dict[str, int]:
    """player -> rank (1 best, ties equal), as the module docstring orders them."""
    outcome = Outcome.from_result(game.result)
    survivors = game.survivors if game.survivors is not None else frozenset(outcome.survivors)
    winners = set(outcome.winners)
    out: dict[str, int] = {}
    for player, power in _seated(game).items():
        if player in game.departed and player not in game.players.values():
            out[player] = 4
        elif power in winners:
            out[player] = 1
        elif power in survivors and outcome.kind in SOLE_WINNER:
            out[player] = 2
        else:
            out[player] = 3
    return out


def rate_game(game: FinishedGame, current: Mapping[str, Rating]) -> RatingUpdate | None:
    """The rating changes of ``game`` from the players' ``current`` ratings in its variant
    (a player without one starts from the model's prior); None if the game is unrated."""
    if unrated_reason(game) is not None:
        return None
    ordered = sorted(ranks(game).items())
    before = [current.get(p) or Rating(p, game.variant) for p, _ in ordered]
    for rating in before:
        if rating.variant != game.variant:
            raise ValueError(f"{rating.player}'s rating is for {rating.variant}, the game is {game.variant}")
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma, name=r.player)] for r in before]
    rated = _MODEL.rate(teams, ranks=[float(rank) for _, rank in ordered])
    changes = tuple(
        RatingChange(r.player, rank, r, replace(r, mu=float(new[0].mu), sigma=float(new[0].sigma),
                                                  games=r.games + 1, last_game=game.game_id))
        for r, (_, rank), new in zip(before, ordered, rated, strict=True)
    )
    return RatingUpdate(game.game_id, game.variant, changes)


class StaleRating(Exception):
    """A player's rating moved since the update was computed: compute it again."""


def apply_change(current: Rating | None, change: RatingChange) -> Rating:
    """The rating after ``change``; the same rating if the change is already in it."""
    if current is not None and current.last_game == change.after.last_game:
        return current
    expected = change.before
    if (current or Rating(expected.player, expected.variant)) != expected:
        raise StaleRating(f"{expected.player}'s rating is no longer the one this update started from")
    return change.after


@dataclass(frozen=True)
class Ledger:
    """Ratings and the games already rated: ``apply`` is idempotent per game id."""

    ratings: Mapping[tuple[str, str], Rating] = field(default_factory=lambda: MappingProxyType({}))
    rated_games: frozenset[str] = frozenset()

    def rating(self, player: str, variant: str) -> Rating:
        return self.ratings.get((player, variant)) or Rating(player, variant)

    def apply(self, game: FinishedGame) -> tuple[Ledger, RatingUpdate | None]:
        """The ledger with ``game`` rated, and its update; unchanged (and None) if the game
        was rated already or does not count."""
        if game.game_id in self.rated_games:
            return self, None
        current = {p: r for (p, v), r in self.ratings.items() if v == game.variant}
        update = rate_game(game, current)
        if update is None:
            return self, None
        ratings = dict(self.ratings)
        for change in update.changes:
            key = (change.player, game.variant)
            ratings[key] = apply_change(self.ratings.get(key), change)
        return Ledger(MappingProxyType(ratings), self.rated_games | {game.game_id}), update

    def leaderboard(self, variant: str) -> list[Rating]:
        """The variant's ratings, best ``ordinal`` first (ties by player id)."""
        found = [r for (_, v), r in self.ratings.items() if v == variant]
        return sorted(found, key=lambda r: (-r.ordinal, r.player))
