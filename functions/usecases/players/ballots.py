"""What a caller may see of a phase's draw and concession votes (functions/usecases/seats/votes.py).

The view needs only this; casting a vote (votes.py) also needs the lifecycle, the deadline
schedules and the event log, so the two live apart and a player's view does not load the
casting side (API cold start, issue 9).
"""

from __future__ import annotations

from functions.ports import GameRecord


def ballot(game: GameRecord) -> str:
    return str(game.settings.get("draw_votes") or "secret")


def votes_seen_by(game: GameRecord, power: str | None) -> dict[str, dict[str, bool]]:
    """What a caller may see of this phase's votes: all (public), or only its own (secret)."""
    shown = {p: {"draw": bool(v.get("draw")), "concede": bool(v.get("concede"))}
             for p, v in sorted(game.votes.items())}
    if ballot(game) == "public":
        return shown
    return {power: shown[power]} if power in shown else {}
