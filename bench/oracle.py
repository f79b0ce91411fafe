"""The oracle check: Convoy's next phase beside MILA's ``diplomacy`` 1.1.2, phase by phase.

MILA is a different engine (shared/STYLE.md: "good as an oracle to compare outcomes with,
not as a model"); where the two disagree, one of them is wrong or they follow different
rules. This script plays seeded random games (``bench.random_play``, the property tests'
player) under Convoy's 2000 rulebook, gives every movement and adjustment phase to MILA as
well (its position, centres and our canonical order texts, which are MILA's syntax too), and
prints how often the two agree on what comes next:

* the next phase's name (a retreat phase or none, a winter or none, the next spring, or the
  game completed) — issue 31: neither engine opens a phase nobody can order in;
* the next position: every unit, dislodged units marked ``*``.

Why the 2000 rulebook: MILA plays the rules before 2023 — a convoy to an adjacent province
that fails falls back to the land route (DATC 4.A.3, v2.4) and civil disorder counts distance
to home centres (4.D.8) — which is our "2000" rulebook; comparing it with our default 2023
rules would count those known rule choices as disagreements. Retreat phases are not given to
MILA: its API sets a dislodged unit without its retreat options (``set_units('*A PAR')``), so
it could not play them as we do; the phase after a retreat phase is checked through the
movement phase before it (a retreat phase is opened, or not, by both).

Each disagreement is put in a class by what the two answers show (``classify``), and the
classes and examples are printed so a reader can judge them:

* **own support**: a move of ours failed although supports of the attacked unit's own
  power were given to it, which we do not count (a power never helps dislodge its own
  unit: DATC 6.D.12-6.D.14, 6.E.3). MILA counts them when the attack goes by convoy (or
  decides a convoy's disruption with them), and dislodges.
* **retreats after a convoyed attack**: MILA gives a unit dislodged by a convoyed army
  every adjacent province as a retreat, occupied or not (``_move_results``: ``not
  combat and where != attacker_site or via_convoy``, the ``or`` binding loosest), so it
  opens a retreat phase for a unit that has nowhere to go; we disband it at once.
* **a move ordered via convoy falls back**: its convoy failed (a fleet dislodged); our
  2000 rulebook lets it go over land (DATC 4.A.3 as v2.4 read it, ``6.G.8@fallback``,
  ``6.G.20@fallback``); MILA falls back only for a move not ordered ``VIA``.
* **a support naming the wrong coast**: a support of ``F CON - BUL/EC`` for a fleet ordered
  to ``BUL/SC`` matches nothing (DATC 4.B.4, 6.B.9); MILA counts it.
* **civil disorder's alphabetical tie-break**: at equal distance we remove the unit whose
  province's full name comes first (Finland before Gulf of Bothnia, as DATC 6.J.4/6.J.6
  read the rule); MILA orders by abbreviation (BOT before FIN).
* anything else is printed as **unexplained**.

Needs the ``bench`` extra (``pip install -e '.[bench]'``); not run by the tests.

    .venv/bin/python bench/oracle.py [--games 40] [--seed 1] [--phases 60]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine
from bench.random_play import PlayedPhase, play_game
from engine import Convoy, Decision, GameStatus, Move, PhaseType, ResultCode, Role, SupportMove

Position = frozenset[tuple[str, str]]  # (power, "A PAR" | "*A PAR")


def ours(played: PlayedPhase) -> tuple[str, Position]:
    after = played.next_state
    name = "COMPLETED" if after.status is GameStatus.COMPLETED else after.phase_name
    units = {(u.power, str(u)) for u in after.units}
    units |= {(d.unit.power, f"*{d.unit}") for d in after.dislodged}
    return name, frozenset(units)


def mila(game: Any, played: PlayedPhase, power_ids: Iterable[str]) -> tuple[str, Position]:
    """Load the phase into MILA's reused ``Game``, process it, and read what comes next
    (its dislodged units' retreat options stay readable in ``retreat_options``)."""
    state = played.state
    game.set_current_phase(state.phase_name)
    game.clear_units()
    game.clear_centers()
    for power in power_ids:
        game.set_units(power, [str(u) for u in state.units_of(power)])
        game.set_centers(power, list(state.centers_of(power)))
    for power, texts in played.texts.items():
        game.set_orders(power, list(texts))
    game.process()
    units = {(power, unit) for power, listed in game.get_units().items() for unit in listed}
    return game.get_current_phase(), frozenset(units)


def retreat_options(game: Any) -> dict[str, list[str]]:
    """MILA's retreat options of its dislodged units, as it stands after ``mila``."""
    return {unit: list(options) for power in game.powers.values() for unit, options in power.retreats.items()}


def classify(played: PlayedPhase, convoy: tuple[str, Position], theirs: tuple[str, Position],
             their_retreats: dict[str, list[str]]) -> str:
    """Name a disagreement by what the two answers show (the module docstring's classes)."""
    differ = {unit.split()[-1].lstrip("*").split("/")[0] for _, unit in convoy[1] ^ theirs[1]}
    convoying = {o.unit.province for given in played.orders.values() for o in given
                 if isinstance(o, Convoy) and o.origin.province in differ}
    for r in played.resolution.results:
        e = r.explanation
        move = r.order if isinstance(r.order, Move) else None
        failed = move is not None and r.result is not ResultCode.OK
        if move is not None and failed and e is not None and e.strengths and e.strengths[0].excluded and (
            move.dest.province in differ | convoying
        ):
            return "own support: MILA counts a power's support for an attack on its own unit"
    occupied = {u.province for u in played.next_state.units}
    only_theirs = {unit for _, unit in theirs[1] - convoy[1]}
    only_ours = {unit for _, unit in convoy[1] - theirs[1]}
    extra = {u[1:] for u in only_theirs if u.startswith("*")}
    if extra and not only_ours and all(
        {o.split("/")[0] for o in their_retreats.get(u, [])} <= occupied for u in extra
    ):
        return "retreats after a convoyed attack: MILA offers occupied provinces"
    return _rule_choice(played, differ) or "unexplained"


def _rule_choice(played: PlayedPhase, differ: set[str]) -> str:
    """The classes that are DATC rule choices (4.A.3, 4.B.4, 4.D.8), or ''."""
    moves = {o.unit.province: o for given in played.orders.values() for o in given if isinstance(o, Move)}
    for r in played.resolution.results:
        order, e = r.order, r.explanation
        if isinstance(order, Move) and order.via_convoy and e is not None and e.decision is Decision.MOVE \
                and not e.named(Role.CONVOYS) and {order.unit.province, order.dest.province} & differ:
            return "a move ordered via convoy falls back: our 2000 rulebook goes over land, MILA does not"
        if isinstance(order, SupportMove) and r.result is ResultCode.VOID:
            moved = moves.get(order.origin.province)
            if moved is not None and moved.dest.province == order.dest.province and moved.dest != order.dest \
                    and order.dest.province in differ:
                return "a support naming the wrong coast: void by DATC 6.B.9, MILA counts it"
        disorder = r.reason is not None and r.reason.code == "CIVIL_DISORDER"
        if disorder and order.power in _powers(differ, played):
            return "civil disorder's tie-break: full names (ours), abbreviations (MILA)"
    return ""


def _powers(differ: set[str], played: PlayedPhase) -> set[str]:
    units = {u.province: u.power for u in played.state.units}
    return {units[p] for p in differ if p in units}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--phases", type=int, default=60, help="phases per game at most")
    args = parser.parse_args(argv)
    try:
        import diplomacy
    except ImportError:
        print("MILA's diplomacy is not installed: pip install -e '.[bench]'")
        return 1
    game_map = engine.load_map("classical")
    mila_game = diplomacy.Game(map_name="standard")
    compared: Counter[str] = Counter()
    same_phase: Counter[str] = Counter()
    same_both: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    pairs: Counter[str] = Counter()  # (our next phase's kind, MILA's) where they differ
    examples: dict[str, list[str]] = {}
    for n in range(args.games):
        games = play_game(game_map, args.seed + n, rules="2000", max_phases=args.phases, with_texts=True)
        for played in games:
            kind = played.state.phase_type
            if kind is PhaseType.RETREAT:
                continue
            convoy = ours(played)
            theirs = mila(mila_game, played, game_map.power_ids)
            compared[kind.value] += 1
            same_phase[kind.value] += convoy[0] == theirs[0]
            same_both[kind.value] += convoy == theirs
            if convoy[0] != theirs[0]:
                pairs[f"Convoy {_kind(convoy[0])}, MILA {_kind(theirs[0])}"] += 1
            if convoy != theirs:
                label = classify(played, convoy, theirs, retreat_options(mila_game))
                classes[label] += 1
                examples.setdefault(label, [])
                if len(examples[label]) < 3:
                    examples[label].append(_example(played, convoy, theirs))
    _report(args, compared, same_phase, same_both, classes, examples)
    print("\nWhere the next phase differs (the phase kind each engine goes to):")
    for pair, count in pairs.most_common():
        print(f"- {pair}: {count}")
    return 0


def _kind(phase: str) -> str:
    if phase == "COMPLETED":
        return "end"
    return {"M": "movement", "R": "retreat", "A": "adjustment"}[phase[-1]]


def _example(played: PlayedPhase, convoy: tuple[str, Position], theirs: tuple[str, Position]) -> str:
    only_ours = sorted(f"{p[:3]} {u}" for p, u in convoy[1] - theirs[1])
    only_theirs = sorted(f"{p[:3]} {u}" for p, u in theirs[1] - convoy[1])
    return (f"{played.state.phase_name}: Convoy -> {convoy[0]}, MILA -> {theirs[0]}; "
            f"only Convoy: {', '.join(only_ours) or '-'}; only MILA: {', '.join(only_theirs) or '-'}")


def _report(args: argparse.Namespace, compared: Counter[str], same_phase: Counter[str],
            same_both: Counter[str], classes: Counter[str], examples: dict[str, list[str]]) -> None:
    total = sum(compared.values())
    print(f"# Convoy (2000 rulebook) beside MILA diplomacy: {args.games} random games, seed {args.seed}, "
          f"at most {args.phases} phases each\n")
    print("| phase | compared | same next phase | same next phase and position |")
    print("|---|---:|---:|---:|")
    for kind in sorted(compared):
        print(f"| {kind.lower()} | {compared[kind]:,} | {same_phase[kind]:,} | {same_both[kind]:,} |")
    print(f"| all | {total:,} | {sum(same_phase.values()):,} | {sum(same_both.values()):,} |\n")
    for label, count in classes.most_common():
        print(f"- {label}: {count}")
        for line in examples[label]:
            print(f"    - {line}")


if __name__ == "__main__":
    raise SystemExit(main())
