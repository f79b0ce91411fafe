"""Tournaments stored and run (issue 34 item 7): an event, its rounds of boards, standings.

A director (a signed-in account, or the operator) creates the event with its entrants
(accounts), its number of rounds and its scoring system. Seeding a round
(``community.tournament.seed_round``: by rating, balanced, fewest repeat pairings) creates one
game per board and seats the players at once, each seat bound to its account: the players play
with their own sign-in, no token to hand out. A board's game is private, with a password nobody
is told, so no one else takes a seat while the director seats the board. The next round is
seeded once every board of the last one is over. The event's view and standings are in
``tournament_standings``.

Powers are dealt to each board's players by a shuffle seeded from the event, round and board,
so a replayed seeding deals the same; a player who had a power before is dealt another one
where the board allows (a simple rotation, not an optimum).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from community.tournament import (
    Board,
    Round,
    meetings,
    repeats,
    seed_round,
)
from engine.scoring import SCORING_SYSTEMS
from functions.errors import Conflict, DomainError, Forbidden, ValidationFailed
from functions.ports import Clock, GameStore, ItemNotFound, StaleVersion
from functions.ports.accounts import AccountStore
from functions.ports.community import CommunityStore
from functions.usecases.accounts import User
from functions.usecases.game import PHASE_TYPES, LifecycleSettings, iso
from functions.usecases.games import CreateGame, create_game
from functions.usecases.seats import join_game

BOARD_SIZE = 7
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")


class TournamentNotFound(DomainError):
    code = "TOURNAMENT_NOT_FOUND"
    status = 404


class RoundNotOver(DomainError):
    """A round is seeded only once every board of the round before is over."""

    code = "ROUND_NOT_OVER"
    status = 409


class TournamentComplete(DomainError):
    code = "TOURNAMENT_COMPLETE"
    status = 409


def create_tournament(
    community: CommunityStore,
    accounts: AccountStore,
    clock: Clock,
    director: str,
    name: str,
    players: Sequence[str],
    rounds: int,
    scoring: str,
    variant: str = "classical",
    max_year: int | None = None,
    phase_seconds: int | None = None,
) -> dict[str, Any]:
    """A new event; ``VALIDATION_ERROR`` when the entrants do not fill boards of seven or an
    entrant is not an account."""
    if len(set(players)) != len(players):
        raise ValidationFailed("an entrant is listed twice")
    if len(players) % BOARD_SIZE:
        raise ValidationFailed(f"{len(players)} entrants do not fill boards of {BOARD_SIZE}")
    if scoring not in SCORING_SYSTEMS:
        raise ValidationFailed(f"scoring must be one of {', '.join(SCORING_SYSTEMS)}")
    names = {}
    for player in players:
        found = accounts.profile(player)
        if found is None:
            raise ValidationFailed(f"entrant {player!r} is not an account")
        names[player] = found.display_name
    tournament = {
        "tournament_id": secrets.token_hex(6),
        "name": name,
        "variant": variant,
        "scoring": scoring,
        "rounds": rounds,
        "players": list(players),
        "names": names,
        "director": director,
        "max_year": max_year,
        "phase_seconds": phase_seconds,
        "created_at": iso(clock.now()),
        "seeded": [],
        "version": 0,
    }
    community.save_tournament(tournament, expected_version=0)
    tournament["version"] = 1
    return tournament


def load_tournament(community: CommunityStore, tournament_id: str) -> dict[str, Any]:
    found = community.tournament(tournament_id)
    if found is None:
        raise TournamentNotFound(f"no tournament {tournament_id!r}")
    return found


def _history(tournament: Mapping[str, Any]) -> list[Round]:
    return [
        Round(
            r["number"],
            tuple(Board(r["number"], b["number"], tuple(sorted(b["seats"].values()))) for b in r["boards"]),
        )
        for r in tournament["seeded"]
    ]


def _deal(tournament: Mapping[str, Any], board: Board) -> dict[str, str]:
    """power -> player: a seeded shuffle, then players who held a power before rotate off it."""
    seed = int.from_bytes(
        hashlib.sha256(f"{tournament['tournament_id']}:{board.round}:{board.number}".encode()).digest()[:8],
        "big",
    )
    players = list(board.players)
    random.Random(seed).shuffle(players)
    held = {(p, power) for r in tournament["seeded"] for b in r["boards"] for power, p in b["seats"].items()}
    for _ in range(BOARD_SIZE):
        if not any((p, power) in held for power, p in zip(POWERS, players, strict=True)):
            break
        players = players[1:] + players[:1]
    return dict(zip(POWERS, players, strict=True))


def _over(store: GameStore, game_id: str) -> bool:
    try:
        return store.load(game_id).status == "COMPLETED"
    except ItemNotFound:
        return False


def _may_direct(tournament: Mapping[str, Any], caller: str | None, operator: bool) -> None:
    if not operator and caller != tournament["director"]:
        raise Forbidden("only the tournament's director seeds its rounds")


def seed_next_round(
    store: GameStore,
    community: CommunityStore,
    accounts: AccountStore,
    clock: Clock,
    tournament_id: str,
    caller: str | None,
    operator: bool = False,
) -> dict[str, Any]:
    """Seed the next round: its boards' games created and seated; the tournament as stored."""
    tournament = load_tournament(community, tournament_id)
    _may_direct(tournament, caller, operator)
    seeded = tournament["seeded"]
    if len(seeded) >= int(tournament["rounds"]):
        raise TournamentComplete(f"all {tournament['rounds']} rounds are seeded")
    if seeded and not all(_over(store, b["game_id"]) for b in seeded[-1]["boards"]):
        raise RoundNotOver(f"round {seeded[-1]['number']} has boards still in play")
    variant = str(tournament["variant"])
    ratings = {p: (r.ordinal if (r := community.rating(p, variant)) else 0.0) for p in tournament["players"]}
    number = len(seeded) + 1
    history = _history(tournament)
    seeding = seed_round(number, tournament["players"], ratings, board_size=BOARD_SIZE, history=history)
    boards = []
    for board in seeding.boards:
        seats = _deal(tournament, board)
        game_id = _board_game(store, accounts, clock, tournament, board, seats)
        boards.append({"number": board.number, "game_id": game_id, "seats": seats})
    met = meetings(history)
    seeded.append(
        {"number": number, "boards": boards, "repeats": repeats([b.players for b in seeding.boards], met)}
    )
    version = int(tournament.pop("version"))
    try:
        community.save_tournament(tournament, expected_version=version)
    except StaleVersion as exc:  # two seedings at once: one wins; the other's boards stay unlisted
        raise Conflict("another request seeded the round meanwhile; read the tournament again") from exc
    tournament["version"] = version + 1
    return tournament


def _board_game(
    store: GameStore,
    accounts: AccountStore,
    clock: Clock,
    tournament: Mapping[str, Any],
    board: Board,
    seats: Mapping[str, str],
) -> str:
    password = secrets.token_urlsafe(24)  # told to nobody: the director seats every player now
    seconds = tournament.get("phase_seconds")
    created = create_game(
        store,
        clock,
        CreateGame(
            variant=str(tournament["variant"]),
            private=True,
            join_password=password,
            phase_seconds={t: int(seconds) for t in PHASE_TYPES} if seconds else {},
            name=f"{tournament['name']} - round {board.round}, board {board.number}",
            lifecycle=LifecycleSettings(max_year=tournament.get("max_year")),
            community={"scoring": tournament["scoring"], "tournament": tournament["tournament_id"]},
            creator_user_id=str(tournament["director"]),
        ),
    )
    for power, player in sorted(seats.items()):
        accounts.remember_game(player, created.game_id, iso(clock.now()))
        join_game(
            store,
            clock,
            created.game_id,
            power,
            password,
            owner=User(player, str(tournament["names"].get(player, ""))),
        )
    return created.game_id
