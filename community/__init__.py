"""What a community keeps of its games: ratings, reliability, open formats, tournaments (issue 34).

Pure modules (no I/O, no clock, no storage): each takes values and returns values, so the
use cases that will store profiles, ratings and tournaments (after issue 30's restructure)
only load, call and save.

Why a package of its own and not ``engine/``: the engine holds the rules of a game and
imports only the standard library. Ratings are not a rule of Diplomacy and need a rating
library (``openskill``); reliability reads the game store's event records, a vocabulary
of the server, not of the board; the open formats translate other programs' documents;
tournaments are about people across boards. Scoring *is* a rule (what a game is played
for), so it lives in ``engine/scoring.py`` and is used from here.

Layering (tests/contracts/test_boundaries.py): ``community`` may import ``engine`` and
nothing else of ours; the use cases may import it.

- ``ratings``: OpenSkill ratings per player and variant from a finished game, idempotent.
- ``reliability``: on-time orders, civil disorders and games left, from a game's events.
- ``mila``: MILA's saved-game JSON to and from Convoy's export document.
- ``cicero``: webDiplomacy games in the layout of Meta's Cicero release, replayed into
  Convoy's export document.
- ``tournament``: rounds of boards, seeding without repeat pairings, standings.
"""
