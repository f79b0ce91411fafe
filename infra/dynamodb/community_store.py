"""The community in the game table (``functions.ports.community.CommunityStore``, issue 34).

| pk | sk | item |
|---|---|---|
| ``GAME#<id>`` | ``RECORDED`` | write-once marker: the game is in the records |
| ``ARCHIVE#<variant>`` | ``<ended_at>#<id>`` | the archive entry (by variant and date) |
| ``PLAYER#<user>`` | ``PLAYED#<ended_at>#<id>`` | the player's line for the game (by player) |
| ``PLAYER#<user>`` | ``STATS`` | the profile's counters (added to once per rated game) |
| ``PLAYER#<user>`` | ``RATING#<variant>`` | mu/sigma as text, games, last_game; board/ordinal (index) |
| ``TOURNAMENT#<id>`` | ``EVENT`` | a tournament: players, rounds, boards, system (versioned) |

Why these keys and one index: every search the archive offers starts from a variant or a
player, and both are a partition here, sorted by the end date, so a date range is a key
condition and a result kind a filter on few items; no scan, no index. The leaderboard is the
one access no partition answers (every player's rating in a variant, best first): the sparse
index ``by_rating`` (hash ``board`` = the variant, range ``ordinal`` as a number) answers it with
one Query, projecting only what the table shows. A finished game is written rarely (one write
per game, not per turn), so ``ARCHIVE#<variant>`` partitions stay far under DynamoDB's 1,000
writes a second per partition.

One ``TransactWriteItems`` per game: the marker (``attribute_not_exists``), the archive entry,
and for each rated player the line, the counters (``ADD``) and the rating, conditional on the
``last_game`` it was read with. Up to 3 + 3 x 7 items for a classical board, within the
transaction limit of 100. Numbers: DynamoDB keeps no float here (infra/dynamodb/items.py), so
mu and sigma are stored as text (``repr``, exact) and ``ordinal`` as a decimal for the index.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from functions.ports import StaleVersion
from functions.ports.community import (
    ArchiveEntry,
    ArchiveQuery,
    FinishedGameWrite,
    PlayedGame,
    PlayerStats,
    RatingMoved,
    StoredRating,
)
from infra import aws_errors
from infra.dynamodb import items, keys
from infra.dynamodb.table import TableAdapter
from infra.errors import is_conditional_failure

RECORDED = "RECORDED"
STATS = "STATS"
RATING_PREFIX = "RATING#"
PLAYED_PREFIX = "PLAYED#"
RATING_INDEX = "by_rating"
TOURNAMENT = "EVENT"
_PACKED = frozenset({"centres", "players", "reliability", "winners", "body"})


def player_pk(player: str) -> str:
    return f"PLAYER#{player}"


def archive_pk(variant: str) -> str:
    return f"ARCHIVE#{variant}"


def tournament_pk(tournament_id: str) -> str:
    return f"TOURNAMENT#{tournament_id}"


def _key(pk: str, sk: str) -> dict[str, Any]:
    return items.to_item({"pk": pk, "sk": sk})


def _ordinal(mu: float, sigma: float) -> Decimal:
    return Decimal(repr(round(mu - 3 * sigma, 6)))


class DynamoCommunityStore(TableAdapter):
    """Ratings, profiles, the archive and tournaments in the game table."""

    CONDITIONAL = frozenset({"transact_write_items", "put_item"})

    # --- the once-per-game write -----------------------------------------------------------

    def recorded(self, game_id: str) -> bool:
        answer = self._call("get_item", TableName=self.table_name, ConsistentRead=True,
                            Key=_key(keys.game_pk(game_id), RECORDED), ProjectionExpression="pk")
        return "Item" in answer

    def record(self, write: FinishedGameWrite) -> bool:
        entry = write.entry
        actions: list[dict[str, Any]] = [
            {"Put": {"TableName": self.table_name, "ConditionExpression": "attribute_not_exists(pk)",
                     "Item": items.to_item({"pk": keys.game_pk(entry.game_id), "sk": RECORDED,
                                            "rated": entry.rated, "ended_at": entry.ended_at})}},
            {"Put": {"TableName": self.table_name, "Item": _archive_item(entry)}},
        ]
        actions += [{"Put": {"TableName": self.table_name, "Item": _line_item(line)}} for line in write.lines]
        actions += [self._add_counters(player, counters, write.names.get(player, ""))
                    for player, counters in sorted(write.counters.items())]
        actions += [self._put_rating(before, after) for before, after in write.ratings]
        try:
            self._call("transact_write_items", TransactItems=actions)
        except aws_errors.ClientError as exc:
            if not is_conditional_failure(exc):
                raise
            if self.recorded(entry.game_id):
                return False
            raise RatingMoved(f"a rating moved while game {entry.game_id} was recorded") from exc
        return True

    def _add_counters(self, player: str, counters: Mapping[str, int], name: str) -> dict[str, Any]:
        names = {f"#c{i}": k for i, k in enumerate(sorted(counters))}
        values = {f":c{i}": int(counters[k]) for i, k in enumerate(sorted(counters))}
        adds = ", ".join(f"{n} {v}" for n, v in zip(names, values, strict=True))
        return {"Update": {
            "TableName": self.table_name, "Key": _key(player_pk(player), STATS),
            "UpdateExpression": f"SET display_name = :name ADD {adds}",
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": items.to_item({**values, ":name": name}),
        }}

    def _put_rating(self, before: StoredRating | None, after: StoredRating) -> dict[str, Any]:
        action: dict[str, Any] = {"TableName": self.table_name, "Item": _rating_item(after)}
        if before is None or before.last_game is None:
            action["ConditionExpression"] = "attribute_not_exists(pk)"
        else:
            action["ConditionExpression"] = "last_game = :last"
            action["ExpressionAttributeValues"] = items.to_item({":last": before.last_game})
        return {"Put": action}

    # --- ratings -----------------------------------------------------------------------------

    def rating(self, player: str, variant: str) -> StoredRating | None:
        answer = self._call("get_item", TableName=self.table_name, ConsistentRead=True,
                            Key=_key(player_pk(player), RATING_PREFIX + variant))
        return _rating(items.from_item(answer["Item"])) if "Item" in answer else None

    def ratings_of(self, player: str) -> list[StoredRating]:
        return [_rating(i) for i in self._query(player_pk(player), RATING_PREFIX)]

    def leaderboard(self, variant: str, limit: int) -> list[StoredRating]:
        answer = self._call(
            "query", TableName=self.table_name, IndexName=RATING_INDEX, ScanIndexForward=False,
            KeyConditionExpression="board = :board", Limit=limit,
            ExpressionAttributeValues=items.to_item({":board": variant}),
        )
        return [_rating(items.from_item(i)) for i in answer.get("Items", [])]

    # --- profiles and the archive --------------------------------------------------------------

    def stats(self, player: str) -> PlayerStats | None:
        answer = self._call("get_item", TableName=self.table_name, ConsistentRead=True,
                            Key=_key(player_pk(player), STATS))
        if "Item" not in answer:
            return None
        attrs = items.from_item(answer["Item"])
        name = str(attrs.pop("display_name", ""))
        counts = {k: int(v) for k, v in attrs.items() if k not in ("pk", "sk")}
        return PlayerStats(player, name, counts)

    def played(self, player: str, limit: int) -> list[PlayedGame]:
        found = self._query(player_pk(player), PLAYED_PREFIX, newest_first=True, limit=limit)
        return [_line(i) for i in found]

    def search(self, query: ArchiveQuery) -> list[ArchiveEntry]:
        if query.player:
            lines = self._query(player_pk(query.player), PLAYED_PREFIX, newest_first=True,
                                since=query.since, until=query.until, kind=query.kind,
                                variant=query.variant, limit=query.limit)
            return self._entries([_line(i) for i in lines])
        if not query.variant:
            raise ValueError("an archive search names a variant or a player")
        found = self._query(archive_pk(query.variant), "", newest_first=True, since=query.since,
                            until=query.until, kind=query.kind, limit=query.limit)
        return [_entry(i) for i in found]

    def _entries(self, lines: list[PlayedGame]) -> list[ArchiveEntry]:
        """The archive entries of a player's lines, in the lines' order (newest first): one
        batch read (archive entries are written once, so an eventually consistent read is exact)."""
        where = [(archive_pk(line.variant), f"{line.ended_at}#{line.game_id}") for line in lines]
        read = self._get_many([_key(pk, sk) for pk, sk in where], consistent=False)
        found = {(e["pk"], e["sk"]): e for e in (items.from_item(i, _PACKED) for i in read)}
        return [_entry(found[k]) for k in where if k in found]

    def _query(self, pk: str, prefix: str, *, newest_first: bool = False, since: str | None = None,
               until: str | None = None, kind: str | None = None, variant: str | None = None,
               limit: int | None = None) -> list[dict[str, Any]]:
        """One partition's items under ``prefix`` (a date range on the sort key's date part);
        ``kind``/``variant`` are filters, so pages are read until ``limit`` items pass."""
        low, high = f"{prefix}{since or ''}" or "0", f"{prefix}{until or ''}~"  # a key is never ""
        values: dict[str, Any] = {":pk": pk, ":low": low, ":high": high}
        filters = []
        if kind:
            filters.append("kind = :kind")
            values[":kind"] = kind
        if variant:
            filters.append("variant = :variant")
            values[":variant"] = variant
        request: dict[str, Any] = {
            "TableName": self.table_name, "ConsistentRead": True, "ScanIndexForward": not newest_first,
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :low AND :high",
            "ExpressionAttributeValues": items.to_item(values),
        }
        if filters:
            request["FilterExpression"] = " AND ".join(filters)
        found: list[dict[str, Any]] = []
        while True:
            answer = self._call("query", **request)
            found += [items.from_item(i, _PACKED) for i in answer.get("Items", [])]
            if "LastEvaluatedKey" not in answer or (limit is not None and len(found) >= limit):
                break
            request["ExclusiveStartKey"] = answer["LastEvaluatedKey"]
        return found[:limit] if limit is not None else found

    # --- tournaments ---------------------------------------------------------------------------

    def tournament(self, tournament_id: str) -> dict[str, Any] | None:
        answer = self._call("get_item", TableName=self.table_name, ConsistentRead=True,
                            Key=_key(tournament_pk(tournament_id), TOURNAMENT))
        if "Item" not in answer:
            return None
        attrs = items.from_item(answer["Item"], _PACKED)
        return {**attrs["body"], "version": int(attrs["version"])}

    def save_tournament(self, tournament: dict[str, Any], *, expected_version: int) -> None:
        body = {k: v for k, v in tournament.items() if k != "version"}
        item = items.to_item({"pk": tournament_pk(str(tournament["tournament_id"])), "sk": TOURNAMENT,
                              "version": expected_version + 1, "body": body}, _PACKED, compress=True)
        condition: dict[str, Any] = {"ConditionExpression": "attribute_not_exists(pk)"}
        if expected_version:
            condition = {"ConditionExpression": "version = :v",
                         "ExpressionAttributeValues": items.to_item({":v": expected_version})}
        try:
            self._call("put_item", TableName=self.table_name, Item=item, **condition)
        except aws_errors.ClientError as exc:
            if is_conditional_failure(exc):
                raise StaleVersion(str(tournament["tournament_id"]), expected_version) from exc
            raise


def _archive_item(entry: ArchiveEntry) -> dict[str, Any]:
    return items.to_item({
        "pk": archive_pk(entry.variant), "sk": f"{entry.ended_at}#{entry.game_id}", "game_id": entry.game_id,
        "variant": entry.variant, "name": entry.name, "ended_at": entry.ended_at, "kind": entry.kind,
        "winners": list(entry.winners), "centres": dict(entry.centres), "players": dict(entry.players),
        "rated": entry.rated, "unrated_reason": entry.unrated_reason, "phases": entry.phases,
    }, _PACKED)


def _entry(attrs: Mapping[str, Any]) -> ArchiveEntry:
    return ArchiveEntry(
        game_id=str(attrs["game_id"]), variant=str(attrs["variant"]), name=str(attrs.get("name", "")),
        ended_at=str(attrs["ended_at"]), kind=str(attrs["kind"]),
        winners=tuple(str(w) for w in attrs.get("winners") or ()),
        centres={str(k): int(v) for k, v in (attrs.get("centres") or {}).items()},
        players={str(k): str(v) for k, v in (attrs.get("players") or {}).items()},
        rated=bool(attrs.get("rated")), unrated_reason=attrs.get("unrated_reason"),
        phases=int(attrs.get("phases") or 0),
    )


def _line_item(line: PlayedGame) -> dict[str, Any]:
    attrs = line._asdict()
    for name in ("rating_before", "rating_after"):
        value = attrs.pop(name)
        if value is not None:
            attrs[name] = repr(float(value))
    attrs["reliability"] = dict(line.reliability)
    sort_key = f"{PLAYED_PREFIX}{line.ended_at}#{line.game_id}"
    return items.to_item({"pk": player_pk(line.player), "sk": sort_key, **attrs}, _PACKED)


def _line(attrs: Mapping[str, Any]) -> PlayedGame:
    def number(name: str) -> float | None:
        return float(attrs[name]) if attrs.get(name) is not None else None

    return PlayedGame(
        player=str(attrs["player"]), game_id=str(attrs["game_id"]), variant=str(attrs["variant"]),
        ended_at=str(attrs["ended_at"]), power=str(attrs["power"]), kind=str(attrs["kind"]),
        outcome=str(attrs["outcome"]), centres=int(attrs["centres"]), rated=bool(attrs["rated"]),
        reliability={str(k): int(v) for k, v in (attrs.get("reliability") or {}).items()},
        rating_before=number("rating_before"), rating_after=number("rating_after"),
    )


def _rating_item(rating: StoredRating) -> dict[str, Any]:
    return items.to_item({
        "pk": player_pk(rating.player), "sk": RATING_PREFIX + rating.variant, "player": rating.player,
        "variant": rating.variant, "mu": repr(float(rating.mu)), "sigma": repr(float(rating.sigma)),
        "games": rating.games, "last_game": rating.last_game, "display_name": rating.display_name,
        "board": rating.variant, "ordinal": _ordinal(rating.mu, rating.sigma),
    })


def _rating(attrs: Mapping[str, Any]) -> StoredRating:
    return StoredRating(
        player=str(attrs["player"]), variant=str(attrs["variant"]), mu=float(attrs["mu"]),
        sigma=float(attrs["sigma"]), games=int(attrs["games"]), last_game=attrs.get("last_game"),
        display_name=str(attrs.get("display_name") or ""),
    )
