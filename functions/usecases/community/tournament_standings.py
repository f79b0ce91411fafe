"""A tournament as shown (issue 34 item 7): the event with each board's game and points, and
its standings. Standings add up each finished board's points under the event's system
(``community.tournament.standings``); a board still in play counts nothing yet."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from community.tournament import Board, BoardResult, board_points, standings
from functions.ports import GameStore
from functions.usecases.game import with_scores


def tournament_view(store: GameStore, tournament: Mapping[str, Any]) -> dict[str, Any]:
    """The event with each board's game status, result and points."""
    names = tournament["names"]
    boards = []
    for round_ in tournament["seeded"]:
        for board in round_["boards"]:
            game = store.load(board["game_id"])
            result = with_scores(game.result)
            points = _points(tournament, round_["number"], board, game.result) if game.result else None
            boards.append(
                {
                    "round": round_["number"],
                    "number": board["number"],
                    "game_id": board["game_id"],
                    "seats": [
                        {"power": power, "player": p, "display_name": names.get(p, "")}
                        for power, p in sorted(board["seats"].items())
                    ],
                    "status": game.status,
                    "result": result,
                    "points": points,
                }
            )
    return {
        "tournament_id": tournament["tournament_id"],
        "name": tournament["name"],
        "variant": tournament["variant"],
        "scoring": tournament["scoring"],
        "rounds": tournament["rounds"],
        "players": list(tournament["players"]),
        "director": tournament["director"],
        "boards": boards,
        "repeat_pairs": [int(r.get("repeats", 0)) for r in tournament["seeded"]],
    }


def _board_result(round_number: int, board: Mapping[str, Any], result: Mapping[str, Any]) -> BoardResult:
    seats = dict(board["seats"])
    return BoardResult(
        Board(round_number, int(board["number"]), tuple(sorted(seats.values()))), seats, result
    )


def _points(
    tournament: Mapping[str, Any], round_number: int, board: Mapping[str, Any], result: Mapping[str, Any]
) -> dict[str, float]:
    return board_points(_board_result(round_number, board, result), str(tournament["scoring"]))


def tournament_standings(store: GameStore, tournament: Mapping[str, Any]) -> dict[str, Any]:
    """Totals over the finished boards, ranked (community.tournament.standings)."""
    played, finished_rounds = [], 0
    for round_ in tournament["seeded"]:
        done = 0
        for board in round_["boards"]:
            game = store.load(board["game_id"])
            if game.status == "COMPLETED" and game.result:
                played.append(_board_result(round_["number"], board, game.result))
                done += 1
        finished_rounds += int(done == len(round_["boards"]))
    rows = standings(played, str(tournament["scoring"]), tournament["players"])
    names = tournament["names"]
    return {
        "tournament_id": tournament["tournament_id"],
        "name": tournament["name"],
        "scoring": tournament["scoring"],
        "rounds_played": len(tournament["seeded"]),
        "rounds_finished": finished_rounds,
        "standings": [
            {
                "rank": r.rank,
                "player": r.player,
                "display_name": names.get(r.player, ""),
                "total": r.total,
                "best": r.best,
                "boards": r.boards,
            }
            for r in rows
        ],
    }
