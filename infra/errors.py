"""Storage errors in domain words: adapters translate ``ClientError`` into these.

Nothing outside ``infra/`` ever sees a botocore ``ClientError``. This module has
no AWS imports so use cases and fakes can raise and catch the same classes.
"""

from __future__ import annotations


class StorageError(Exception):
    """A storage operation failed for a reason the caller cannot fix by retrying."""


class StorageUnavailable(StorageError):
    """The store could not be reached, timed out or throttled us: nothing was decided,
    and the same request (same Idempotency-Key) may simply be sent again."""


# Error codes AWS uses for "try again later" rather than "this request is wrong".
RETRYABLE_CODES = frozenset({
    "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
    "InternalServerError", "ServiceUnavailable", "LimitExceededException",
})


def is_retryable(error: BaseException) -> bool:
    """True for a botocore ClientError that means "the service is busy", not "bad request"."""
    response = getattr(error, "response", None)
    return isinstance(response, dict) and response.get("Error", {}).get("Code", "") in RETRYABLE_CODES


class StaleVersion(StorageError):
    """Someone else wrote the game first: the version we read is no longer current."""

    def __init__(self, game_id: str, expected_version: int) -> None:
        super().__init__(f"game {game_id} is no longer at version {expected_version}")
        self.game_id = game_id
        self.expected_version = expected_version


class ItemNotFound(StorageError):
    """The game (or item) does not exist."""

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id} not found")
        self.game_id = game_id


class AlreadyExists(StorageError):
    """A create found an item already there (id collision)."""


def is_conditional_failure(error: BaseException) -> bool:
    """True for a botocore ClientError caused by a failed condition (plain or in a transaction)."""
    response = getattr(error, "response", None)
    if not isinstance(response, dict):
        return False
    code = response.get("Error", {}).get("Code", "")
    if code == "ConditionalCheckFailedException":
        return True
    if code == "TransactionCanceledException":
        reasons = response.get("CancellationReasons") or []
        # TransactionConflict: another transaction was writing the same item; for us
        # that is the same fact (someone else wrote first): reload and decide again.
        if any(r.get("Code") in ("ConditionalCheckFailed", "TransactionConflict") for r in reasons):
            return True
        # moto and some SDKs only carry the reasons in the message
        return "ConditionalCheckFailed" in response.get("Error", {}).get("Message", "")
    return False
