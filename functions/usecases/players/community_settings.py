"""A game's community settings, chosen at creation (issue 34 items 3 and 4).

- ``scoring``: the scoring system the game is played for (``engine.scoring.SCORING_SYSTEMS``:
  draw_size, sum_of_squares, c_diplo, c_diplo_73, tribute, open_tribute). Stored in the
  game's settings and copied into its result when it ends, so the result says which points
  count; the result's ``scores`` then carry that system's points beside the two every game
  shows (functions/usecases/game/results.py).
- ``min_reliability``: the share of phases a player must have ordered on time, in whole
  percent (0-100; DynamoDB keeps no floats here), over the rated games of their profile.
- ``min_rating``: the rating (OpenSkill ordinal, mu - 3 sigma; a newcomer has 0) a player
  must have in the game's variant, a whole number.

A game with either minimum admits signed-in accounts only, by their record
(functions/usecases/players/join_rules.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.scoring import SCORING_SYSTEMS
from functions.errors import ValidationFailed

SCORING = "scoring"
MIN_RELIABILITY = "min_reliability"
MIN_RATING = "min_rating"
COMMUNITY_SETTINGS = (SCORING, MIN_RELIABILITY, MIN_RATING)


def community_settings(scoring: str | None = None, min_reliability: int | None = None,
                       min_rating: int | None = None) -> dict[str, Any]:
    """The settings to store; ``VALIDATION_ERROR`` (422) for an unknown system or a bound out of range."""
    out: dict[str, Any] = {}
    if scoring is not None:
        if scoring not in SCORING_SYSTEMS:
            raise ValidationFailed(f"scoring must be one of {', '.join(SCORING_SYSTEMS)}")
        out[SCORING] = scoring
    if min_reliability is not None:
        if not 0 <= int(min_reliability) <= 100:
            raise ValidationFailed("min_reliability is a whole percent, 0 to 100")
        out[MIN_RELIABILITY] = int(min_reliability)
    if min_rating is not None:
        out[MIN_RATING] = int(min_rating)
    return out


def requirements(settings: Mapping[str, Any]) -> dict[str, int]:
    """The game's minimums (empty: anyone may join)."""
    return {k: int(settings[k]) for k in (MIN_RELIABILITY, MIN_RATING) if settings.get(k) is not None}
