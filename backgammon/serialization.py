"""GameState <-> plain JSON-ready dicts, one path both ways (the server stores states with it).

`state_from_dict(state_to_dict(s)) == s` for every reachable state (tested by property).
"""

from __future__ import annotations

from typing import Any

from backgammon.types import DieRolls, GameResult, GameState, Phase, Position, Side, Snapshot, WinKind


def _position_to_dict(p: Position) -> dict[str, Any]:
    return {
        "points": {side.name: list(p.counts[side.value]) for side in Side},
        "bar": {side.name: p.bar[side.value] for side in Side},
        "off": {side.name: p.off[side.value] for side in Side},
    }


def _position_from_dict(d: dict[str, Any]) -> Position:
    return Position(
        counts=(tuple(int(n) for n in d["points"]["WHITE"]), tuple(int(n) for n in d["points"]["BLACK"])),
        bar=(int(d["bar"]["WHITE"]), int(d["bar"]["BLACK"])),
        off=(int(d["off"]["WHITE"]), int(d["off"]["BLACK"])),
    )


def _pair(values: Any) -> tuple[int, int]:
    return int(values[0]), int(values[1])


def state_to_dict(s: GameState) -> dict[str, Any]:
    return {
        **_position_to_dict(s.position),
        "phase": s.phase.value,
        "turn": s.turn.name if s.turn else None,
        "dice": list(s.dice) if s.dice else None,
        "unused": list(s.unused),
        "undo": [{**_position_to_dict(u.position), "unused": list(u.unused)} for u in s.undo],
        "move_by_turn_rolls": s.move_by_turn_rolls,
        "rolls": s.rolls,
        "result": (
            {"winner": s.result.winner.name, "kind": s.result.kind.name, "points": s.result.points}
            if s.result
            else None
        ),
    }


def state_from_dict(d: dict[str, Any]) -> GameState:
    result = d.get("result")
    return GameState(
        position=_position_from_dict(d),
        phase=Phase(d["phase"]),
        turn=Side[d["turn"]] if d.get("turn") else None,
        dice=DieRolls(int(d["dice"][0]), int(d["dice"][1])) if d.get("dice") else None,
        unused=_pair(d["unused"]),
        undo=tuple(Snapshot(_position_from_dict(u), _pair(u["unused"])) for u in d["undo"]),
        move_by_turn_rolls=bool(d["move_by_turn_rolls"]),
        rolls=int(d["rolls"]),
        result=GameResult(Side[result["winner"]], WinKind[result["kind"]]) if result else None,
    )
