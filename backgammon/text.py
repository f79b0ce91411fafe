"""The board as plain text for a terminal: top row 12..23 left to right, bottom row 11..0.

That is the seed's indexing drawn as players see it (0 bottom right, 23 top right). X is WHITE,
O is BLACK; a stack taller than five shows its count in the fifth row.
"""

from __future__ import annotations

from backgammon.types import GameState, Phase, Position, Side

SYMBOL = {Side.WHITE: "X", Side.BLACK: "O"}
_ROWS = 5


def _cell(position: Position, index: int, row: int) -> str:
    side = position.owner(index)
    if side is None:
        return " . " if row == 0 else "   "
    n = position.count(side, index)
    if row == _ROWS - 1 and n > _ROWS:
        return f"{n:>2} "
    return f" {SYMBOL[side]} " if row < n else "   "


def _half(position: Position, indices: list[int], rows: range) -> list[str]:
    lines = []
    for row in rows:
        left = "".join(_cell(position, i, row) for i in indices[:6])
        right = "".join(_cell(position, i, row) for i in indices[6:])
        lines.append(f"|{left}|{right}|")
    return lines


def render_position(position: Position) -> str:
    top, bottom = list(range(12, 24)), list(range(11, -1, -1))
    labels_top = "".join(f"{i:>2} " for i in top[:6]) + " " + "".join(f"{i:>2} " for i in top[6:])
    labels_bottom = "".join(f"{i:>2} " for i in bottom[:6]) + " " + "".join(f"{i:>2} " for i in bottom[6:])
    rule = "+" + "-" * 18 + "+" + "-" * 18 + "+"
    lines = [" " + labels_top, rule]
    lines += _half(position, top, range(_ROWS))
    lines.append("|" + " " * 18 + "|" + " " * 18 + "|")
    lines += _half(position, bottom, range(_ROWS - 1, -1, -1))
    lines += [rule, " " + labels_bottom]
    for side in Side:
        bar, off = position.bar[side.value], position.off[side.value]
        lines.append(f"{SYMBOL[side]} {side.name:<5}  bar {bar:>2}  off {off:>2}")
    return "\n".join(lines)


def render(state: GameState) -> str:
    """The board plus whose turn it is, the dice and the moves each die still allows."""
    lines = [render_position(state.position)]
    if state.phase is Phase.OVER and state.result is not None:
        result = state.result
        lines.append(f"{result.winner.name} wins ({result.kind.name.lower()}, {result.points} point(s))")
    elif state.turn is not None and state.dice is not None:
        dice = ", ".join(f"[{i}]={state.dice[i]}" for i in (0, 1))
        left = f"moves left per die: {state.unused[0]}, {state.unused[1]}"
        lines.append(f"{SYMBOL[state.turn]} {state.turn.name} to play; dice {dice}; {left}")
    return "\n".join(lines)
