"""Issue 18 item 3: `python -m backgammon` plays in a terminal (run here with piped stdin)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from backgammon import InputType
from backgammon.cli import parse_command

ROOT = Path(__file__).resolve().parents[2]


def play(args: list[str], stdin: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "backgammon", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=True,
    )
    return done.stdout


def test_bot_against_bot_plays_a_whole_game_and_draws_the_board() -> None:
    out = play(["--bot", "both", "--seed", "5"], "")
    assert out.count("GAME_WON: ") == 1
    winner = out.split("GAME_WON: ")[1].split()[0]
    assert f"{winner} wins (" in out
    assert " 12 13 14 15 16 17  18 19 20 21 22 23" in out and " 11 10  9  8  7  6   5  4  3  2  1  0" in out


def test_people_at_one_keyboard_get_hints_refusals_and_can_quit() -> None:
    out = play(["--seed", "3"], "h\n0 99\nmove\nu\nq\n")
    assert "legal moves: " in out
    assert "Refused: SOURCE_INVALID" in out
    assert "Refused: NOTHING_TO_UNDO" in out
    assert out.rstrip().endswith("bye")


def test_a_human_against_the_bot_is_the_same_game_for_the_same_seed() -> None:
    # Replayable: the same seed and the same keystrokes give the same transcript.
    keys = "h\nq\n"
    assert play(["--bot", "black", "--seed", "11"], keys) == play(["--bot", "black", "--seed", "11"], keys)


def test_commands_parse_to_the_seeds_inputs() -> None:
    assert parse_command("0 12") == (InputType.MOVE, (0, 12))
    assert parse_command("1 bar") == (InputType.MOVE, (1, None))
    assert parse_command("u") == (InputType.UNDO, None)
    assert parse_command("h") == "hint" and parse_command("q") == "quit" and parse_command("x y z") == "help"
