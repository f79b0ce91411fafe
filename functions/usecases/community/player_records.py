"""A finished game enters the players' records once: ratings, profile counters, the archive (issue 34).

``record_finished_game`` is called by the notifier for each ``GAME_ENDED`` message
(functions/notifier/handler.py). SQS may deliver a message twice and the stream may relay it
twice; the store's write-once marker makes the second call a no-op, and a failure leaves the
message to be redelivered (it fails the record, nothing is half written: one transaction).

Where the facts come from, never typed in:
- who held each seat: the accounts bound to seats (``players[power].user_id``); for seats
  given up before the end, the holder recorded when the seat was taken (``seat_holders``,
  functions/usecases/players/seat_holders.py): the PLAYER_JOINED event's seq -> the account. Seats
  taken with a token alone (bots, anonymous play) belong to no account and are left out of every record.
- reliability: ``community.reliability`` over the game's event log;
- the result: the game's ``result`` record; the rating: ``community.ratings``.

Unrated games (a demo, dummy powers, an imported game, an abandoned game, fewer than two
accounts: ``community.ratings.unrated_reason``) enter the archive and their players' game
lists marked unrated, and change no rating and no profile counter.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from community import reliability as reliability_of
from community.ratings import FinishedGame, Rating, rate_game, unrated_reason
from engine.scoring import SOLE_WINNER
from functions.ports import EventRecord, GameRecord, GameStore, ItemNotFound
from functions.ports.community import (
    ArchiveEntry,
    CommunityStore,
    FinishedGameWrite,
    PlayedGame,
    RatingMoved,
    StoredRating,
)
from functions.usecases.game import DIPLOMACY, kind_name
from functions.usecases.players import holders_of

ATTEMPTS = 5
EVENT_PAGE = 500
_ENDED_AS = {"left": "left", "removed": "removed", "civil_disorder": "civil_disorder", "replaced": "left"}


def all_events(store: GameStore, game_id: str) -> list[EventRecord]:
    found: list[EventRecord] = []
    while True:
        page = store.events_after(game_id, found[-1].seq if found else 0, EVENT_PAGE)
        found += page
        if len(page) < EVENT_PAGE:
            return found


def _holders(game: GameRecord, events: Sequence[EventRecord]) -> dict[int, str]:
    """PLAYER_JOINED seq -> account, for every tenure an account held."""
    holders = dict(holders_of(game))
    last_joined: dict[str, int] = {}
    for event in events:
        if event.type == "PLAYER_JOINED":
            last_joined[str(event.data.get("power"))] = event.seq
    for power, player in game.players.items():  # seats bound before holders were recorded
        user = player.get("user_id")
        if user and power in last_joined:
            holders.setdefault(last_joined[power], str(user))
    return holders


def _outcome(kind: str, winners: Sequence[str], power: str, centres: int, ended: str) -> str:
    if ended in _ENDED_AS:
        return _ENDED_AS[ended]
    if power in winners:
        return "won" if kind in SOLE_WINNER else "drew"
    return "survived" if centres > 0 else "eliminated"


class _Seat:
    """One account's part in the game: its last tenure and its reliability over all of them."""

    def __init__(self, tenure: reliability_of.Tenure, record: reliability_of.Reliability) -> None:
        self.tenure, self.record = tenure, record


def _seats(events: Sequence[EventRecord], holders: Mapping[int, str]) -> dict[str, _Seat]:
    seats: dict[str, _Seat] = {}
    for tenure in reliability_of.tenures(events):
        player = holders.get(tenure.joined_seq)
        if player is None:
            continue
        before = seats.get(player)
        earlier = before.record if before else reliability_of.Reliability()
        record = reliability_of.reliability(tenure) + earlier
        seats[player] = _Seat(tenure, record)
    return seats


def _counts(record: reliability_of.Reliability) -> dict[str, int]:
    return {"phases_owed": record.phases_owed, "on_time": record.on_time, "late": record.late,
            "missed": record.missed, "civil_disorders": record.civil_disorders,
            "games_left": record.games_left, "removed": record.removed}


def _stored(rating: Rating, name: str) -> StoredRating:
    return StoredRating(rating.player, rating.variant, rating.mu, rating.sigma, rating.games,
                        rating.last_game, name)


def _rating(stored: StoredRating) -> Rating:
    return Rating(stored.player, stored.variant, stored.mu, stored.sigma, stored.games, stored.last_game)


def finished_game(game: GameRecord, events: Sequence[EventRecord],
                  seats: Mapping[str, _Seat]) -> FinishedGame:
    """What ``community.ratings`` needs of ``game``."""
    result: Mapping[str, Any] = game.result or {}
    at_end = {p: s.tenure.power for p, s in seats.items() if s.tenure.ended == "finished"}
    departed = {p: s.tenure.power for p, s in seats.items() if s.tenure.ended != "finished"}
    return FinishedGame(
        game_id=game.game_id, variant=game.variant, result=result,
        players={power: player for player, power in at_end.items()}, departed=departed,
        demo=bool(game.settings.get("demo")), dummies=tuple(game.settings.get("dummy_powers") or ()),
        imported=any(e.type == "GAME_IMPORTED" for e in events),
    )


def build_write(game: GameRecord, events: Sequence[EventRecord],
                store: CommunityStore) -> FinishedGameWrite:
    """The one write ``game`` makes, from the ratings as they are now."""
    result: Mapping[str, Any] = game.result or {}
    kind, winners = str(result.get("kind", "")), [str(w) for w in result.get("winners") or ()]
    centres = {str(p): int(c) for p, c in (result.get("centers") or {}).items()}
    ended_at = str(result.get("ended_at") or game.phase_started_at)
    seats = _seats(events, _holders(game, events))
    finished = finished_game(game, events, seats)
    reason = unrated_reason(finished)
    names = {str(p.get("user_id")): str(p.get("display_name") or "") for p in game.players.values()
             if p.get("user_id")}
    before = {p: store.rating(p, game.variant) for p in sorted(seats)} if reason is None else {}
    update = rate_game(finished, {p: _rating(r) for p, r in before.items() if r is not None}) \
        if reason is None else None
    after = {c.player: c.after for c in update.changes} if update else {}
    lines, counters = [], {}
    for player, seat in sorted(seats.items()):
        power = seat.tenure.power
        outcome = _outcome(kind, winners, power, centres.get(power, 0), seat.tenure.ended)
        held = centres.get(power, 0) if seat.tenure.ended == "finished" else 0
        old, new = before.get(player), after.get(player)
        lines.append(PlayedGame(
            player=player, game_id=game.game_id, variant=game.variant, ended_at=ended_at, power=power,
            kind=kind, outcome=outcome, centres=held, rated=update is not None,
            reliability=_counts(seat.record),
            rating_before=(old.ordinal if old else Rating(player, game.variant).ordinal) if new else None,
            rating_after=new.ordinal if new else None,
        ))
        if update is not None:
            counters[player] = {"games_played": 1, "games_finished": int(seat.tenure.ended == "finished"),
                                outcome: 1, "centres": held, **_counts(seat.record)}
    anonymous = bool(game.settings.get("anonymous"))
    entry = ArchiveEntry(
        game_id=game.game_id, variant=game.variant, name=str(game.settings.get("name") or ""),
        ended_at=ended_at, kind=kind, winners=tuple(winners), centres=centres,
        players={} if anonymous else {power: str(p.get("display_name") or "") for power, p in
                                      sorted(game.players.items()) if p.get("display_name")},
        rated=update is not None, unrated_reason=reason, phases=game.phase_index,
    )
    ratings = [(before.get(p), _stored(r, names.get(p, ""))) for p, r in sorted(after.items())]
    return FinishedGameWrite(entry=entry, lines=lines, counters=counters, names=names, ratings=ratings)


def record_finished_game(store: GameStore, community: CommunityStore, game_id: str) -> bool:
    """Enter ``game_id`` into the records if it is over and not entered yet; True if this call
    wrote it. A game gone or not over is nothing to record (False)."""
    try:
        game = store.load(game_id)
    except ItemNotFound:
        return False
    if kind_name(game) != DIPLOMACY:  # backgammon keeps no result of this kind: not rated here
        return False
    if game.status != "COMPLETED" or not game.result or community.recorded(game_id):
        return False
    events = all_events(store, game_id)
    for _ in range(ATTEMPTS):
        try:
            return community.record(build_write(game, events, community))
        except RatingMoved:
            continue  # another game of these players was recorded meanwhile: from their new ratings
    raise RatingMoved(f"game {game_id}: ratings kept moving; the message will be redelivered")
