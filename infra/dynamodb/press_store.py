"""Press on DynamoDB: messages, channels and per-power ledgers under the game's partition.

| pk        | sk                                   | item                                        |
|-----------|--------------------------------------|---------------------------------------------|
| GAME#<id> | PRESS#CHAN#<channel>                 | channel: members, last_seq, last message     |
| GAME#<id> | PRESS#MSG#<channel>#<seq:010d>       | the message (the channel's log)              |
| GAME#<id> | PRESS#INBOX#<power>#<n:010d>         | a copy of the message in a member's inbox    |
| GAME#<id> | META#PRESS#<power>                   | the power's ledger: inbox_seq, read marks... |
| GAME#<id> | PRESS#KEY#<dedupe key>               | a send already applied (its answer)          |
| GAME#<id> | OUTBOX#PRESS#<channel>#<seq>#<i:02d> | the notices the message causes               |

Why this keying: a power's new messages are one ``Query`` on its inbox range
(``PRESS#INBOX#FRANCE#`` after its cursor), a channel's new messages one ``Query`` on
the channel's range; neither reads anything of another power or channel, so reading
50 new messages costs the same in a game with 5,000 messages as in one with 50.

A send is one ``TransactWriteItems``: the channel (conditional on the ``last_seq`` read,
so two senders never get the same seq), the message, one inbox copy and the ledger of
each member (conditional on each ledger's ``version``: inbox counters, unread marks and
the sender's rate counter move together), the dedupe key and the notices. All or nothing.
The META item is not touched: press never races with orders or adjudication.

The ledgers sort right after META (issue 29): a player's view reads the game, its powers'
items and the caller's ledger in one query (infra/dynamodb/keys.py). Games stored before kept
them at ``PRESS#POWER#<power>``: a ledger not found at its key is read there, and every write
goes to the new key (``attribute_not_exists(sk) OR version = :v``: the first write of a
ledger read at its old key creates the new one, a raced one fails).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from functions.ports import (
    ChannelRecord,
    InboxEntry,
    MessageRecord,
    PowerPress,
    PressNotice,
    StaleVersion,
    StorageError,
)
from infra import aws_errors
from infra.dynamodb import items, keys
from infra.dynamodb.game_store import DynamoGameStore
from infra.errors import is_conditional_failure

CHAN = "PRESS#CHAN#"
MSG = "PRESS#MSG#"
INBOX = "PRESS#INBOX#"
POWER = keys.LEDGER_PREFIX
LEGACY_POWER = keys.LEGACY_LEDGER_PREFIX
KEY = "PRESS#KEY#"
OUTBOX = "OUTBOX#PRESS#"
TOP = "9" * 10


def msg_sk(channel: str, seq: int) -> str:
    return f"{MSG}{channel}#{seq:010d}"


def inbox_sk(power: str, n: int) -> str:
    return f"{INBOX}{power}#{n:010d}"


def _message(raw: dict[str, Any]) -> MessageRecord:
    return MessageRecord(**{**raw, "members": tuple(raw["members"])})


def _message_attrs(message: MessageRecord) -> dict[str, Any]:
    return {**message._asdict(), "members": list(message.members)}


def _channel(raw: dict[str, Any]) -> ChannelRecord:
    last = raw.get("last")
    return ChannelRecord(
        channel=raw["channel"],
        members=tuple(raw["members"]),
        last_seq=int(raw.get("last_seq", 0)),
        opened_by=raw.get("opened_by"),
        opened_at=raw.get("opened_at"),
        last=_message(last) if last else None,
    )


class DynamoPressStore(DynamoGameStore):
    """``functions.ports.PressStore`` over the game table (reuses the game store's calls and meter)."""

    # --- reads ---------------------------------------------------------------------------

    def _get(self, game_id: str, sk: str) -> dict[str, Any] | None:
        response = self._call(
            "get_item", TableName=self.table_name,
            Key=items.to_item({"pk": keys.game_pk(game_id), "sk": sk}), ConsistentRead=True,
        )
        item = response.get("Item")
        return items.from_item(item) if item else None

    def _batch(self, game_id: str, sks: Sequence[str]) -> dict[str, dict[str, Any]]:
        """A few dozen of the game's items by sort key (strongly consistent), by sort key."""
        wanted = [items.to_item({"pk": keys.game_pk(game_id), "sk": sk}) for sk in dict.fromkeys(sks)]
        return {plain["sk"]: plain for plain in map(items.from_item, self._get_many(wanted))}

    def ledger(self, game_id: str, power: str) -> PowerPress:
        raw = self._get(game_id, POWER + power) or self._get(game_id, LEGACY_POWER + power)
        return items.ledger_from_attrs(power, raw)

    def ledgers(self, game_id: str, powers: Sequence[str]) -> dict[str, PowerPress]:
        found = self._batch(game_id, [POWER + p for p in powers])
        missing = [p for p in powers if POWER + p not in found]
        if missing:  # a ledger not yet written, or still at its old key (module text)
            old = self._batch(game_id, [LEGACY_POWER + p for p in missing])
            found.update({POWER + p: old[LEGACY_POWER + p] for p in missing if LEGACY_POWER + p in old})
        return {p: items.ledger_from_attrs(p, found.get(POWER + p)) for p in powers}

    def channel(self, game_id: str, channel: str) -> ChannelRecord | None:
        raw = self._get(game_id, CHAN + channel)
        return _channel(raw) if raw else None

    def channels(self, game_id: str, names: Sequence[str]) -> list[ChannelRecord]:
        found = self._batch(game_id, [CHAN + n for n in names])
        return [_channel(found[CHAN + n]) for n in names if CHAN + n in found]

    def applied(self, game_id: str, dedupe_key: str) -> dict[str, Any] | None:
        raw = self._get(game_id, KEY + dedupe_key)
        return dict(raw["result"]) if raw else None

    def _range(self, game_id: str, lo: str, hi: str, limit: int) -> list[dict[str, Any]]:
        response = self._call(
            "query", TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND sk BETWEEN :lo AND :hi",
            ExpressionAttributeValues=items.to_item({":pk": keys.game_pk(game_id), ":lo": lo, ":hi": hi}),
            ConsistentRead=True, Limit=limit,
        )
        return [items.from_item(i) for i in response.get("Items", [])]

    def inbox(self, game_id: str, power: str, after: int, limit: int) -> list[InboxEntry]:
        found = self._range(game_id, inbox_sk(power, after + 1), f"{INBOX}{power}#{TOP}", limit)
        return [InboxEntry(n=int(i["n"]), message=_message(i["message"])) for i in found]

    def channel_messages(self, game_id: str, channel: str, after: int, limit: int) -> list[MessageRecord]:
        found = self._range(game_id, msg_sk(channel, after + 1), f"{MSG}{channel}#{TOP}", limit)
        return [_message(i["message"]) for i in found]

    # --- writes --------------------------------------------------------------------------

    def _put(self, sk: str, game_id: str, attrs: dict[str, Any], condition: str,
             values: dict[str, Any] | None = None) -> dict[str, Any]:
        put: dict[str, Any] = {
            "TableName": self.table_name,
            "Item": items.to_item({**attrs, "pk": keys.game_pk(game_id), "sk": sk, "game_id": game_id}),
            "ConditionExpression": condition,
        }
        if values:
            put["ExpressionAttributeValues"] = items.to_item(values)
        return {"Put": put}

    def _ledger_put(self, game_id: str, ledger: PowerPress, expected_version: int) -> dict[str, Any]:
        attrs = {**asdict(ledger), "version": expected_version + 1}
        if expected_version == 0:
            return self._put(POWER + ledger.power, game_id, attrs, "attribute_not_exists(sk)")
        return self._put(POWER + ledger.power, game_id, attrs, "attribute_not_exists(sk) OR version = :v",
                         {":v": expected_version})

    def commit_message(
        self,
        game_id: str,
        *,
        message: MessageRecord,
        channel: ChannelRecord,
        expected_last_seq: int,
        ledgers: Sequence[tuple[PowerPress, int]],
        notices: Sequence[PressNotice] = (),
        dedupe_key: str | None = None,
        result: dict[str, Any] | None = None,
    ) -> None:
        """The whole send, all or nothing; ``StaleVersion`` when any condition fails."""
        body = _message_attrs(message)
        chan_attrs = {**channel._asdict(), "members": list(channel.members), "last": body}
        new = "attribute_not_exists(sk)"
        chan_sk = CHAN + channel.channel
        actions = [
            self._put(chan_sk, game_id, chan_attrs, new)
            if expected_last_seq == 0
            else self._put(chan_sk, game_id, chan_attrs, "last_seq = :s", {":s": expected_last_seq}),
            self._put(msg_sk(message.channel, message.seq), game_id, {"message": body}, new),
        ]
        for ledger, expected in ledgers:
            actions.append(self._ledger_put(game_id, ledger, expected))
            actions.append(self._put(inbox_sk(ledger.power, ledger.inbox_seq), game_id,
                                     {"n": ledger.inbox_seq, "message": body}, new))
        if dedupe_key is not None:
            actions.append(self._put(KEY + dedupe_key, game_id, {"result": result or {}}, new))
        for i, notice in enumerate(notices):
            sk = f"{OUTBOX}{message.channel}#{message.seq:010d}#{i:02d}"
            attrs = {"seq": message.seq, "kind": notice.kind, "dedupe_key": notice.dedupe_key,
                     "payload": notice.payload}
            if notice.target is not None:
                attrs["target"] = notice.target
            actions.append(self._put(sk, game_id, attrs, new))
        self._write(game_id, actions)

    def save_ledger(self, game_id: str, ledger: PowerPress, *, expected_version: int) -> PowerPress:
        self._write(game_id, [self._ledger_put(game_id, ledger, expected_version)])
        ledger.version = expected_version + 1
        return ledger

    def _write(self, game_id: str, actions: list[dict[str, Any]]) -> None:
        try:
            if len(actions) == 1:
                self._call("put_item", **actions[0]["Put"])
            else:
                self._call("transact_write_items", TransactItems=actions)
        except aws_errors.ClientError as exc:
            if is_conditional_failure(exc):
                raise StaleVersion(game_id, -1) from exc
            raise StorageError(str(exc)) from exc
