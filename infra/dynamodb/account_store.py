"""Accounts in the game table (``functions.ports.AccountStore``): profiles and a user's games.

| pk | sk | item |
|---|---|---|
| ``USER#<sub>`` | ``PROFILE`` | display name, created_at |
| ``USER#<sub>`` | ``GAME#<game_id>`` | the user has (or was taking) a seat or the creator's rights |
| ``TGACCOUNT#<telegram user id>`` | ``ACCOUNT`` | the account a Telegram user linked (bot ``/games``) |

``GAME#`` items are an index, written *before* the game's META names the user (so a crash
between the two leaves an extra index item, never a seat the user cannot find); the
listing reads each game's META and keeps only the games that really name the user
(functions/usecases/accounts/accounts.py). Cognito's ``sub`` is the user id; no email or password
is stored here.
"""

from __future__ import annotations

from functions.ports.accounts import Profile
from infra.dynamodb import items
from infra.dynamodb.table import TableAdapter

PROFILE = "PROFILE"
GAME_PREFIX = "GAME#"


def user_pk(user_id: str) -> str:
    return f"USER#{user_id}"


class DynamoAccountStore(TableAdapter):
    """Account profiles and the Telegram-user index, in the game table (docs/accounts.md)."""

    def profile(self, user_id: str) -> Profile | None:
        answer = self._call("get_item", TableName=self.table_name, ConsistentRead=True,
                            Key=items.to_item({"pk": user_pk(user_id), "sk": PROFILE}))
        if "Item" not in answer:
            return None
        attrs = items.from_item(answer["Item"])
        return Profile(user_id=user_id, display_name=str(attrs["display_name"]),
                       created_at=str(attrs["created_at"]))

    def save_profile(self, profile: Profile) -> None:
        self._call("put_item", TableName=self.table_name, Item=items.to_item({
            "pk": user_pk(profile.user_id), "sk": PROFILE, "display_name": profile.display_name,
            "created_at": profile.created_at,
        }))

    def remember_game(self, user_id: str, game_id: str, at: str) -> None:
        self._call("put_item", TableName=self.table_name, Item=items.to_item({
            "pk": user_pk(user_id), "sk": f"{GAME_PREFIX}{game_id}", "game_id": game_id, "at": at,
        }))

    def games_of(self, user_id: str, limit: int = 100) -> list[str]:
        answer = self._call(
            "query", TableName=self.table_name,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :game)",
            ExpressionAttributeValues=items.to_item({":pk": user_pk(user_id), ":game": GAME_PREFIX}),
            ConsistentRead=True,
        )
        found = [items.from_item(i) for i in answer.get("Items", [])]
        found.sort(key=lambda i: (str(i.get("at", "")), str(i["game_id"])), reverse=True)
        return [str(i["game_id"]) for i in found[:limit]]

    def link_telegram(self, telegram_user_id: int, user_id: str) -> None:
        self._call("put_item", TableName=self.table_name, Item=items.to_item({
            "pk": f"TGACCOUNT#{telegram_user_id}", "sk": "ACCOUNT", "user_id": user_id,
        }))

    def telegram_account(self, telegram_user_id: int) -> str | None:
        answer = self._call("get_item", TableName=self.table_name, ConsistentRead=True,
                            Key=items.to_item({"pk": f"TGACCOUNT#{telegram_user_id}", "sk": "ACCOUNT"}))
        return str(items.from_item(answer["Item"])["user_id"]) if "Item" in answer else None
