"""Reading a botocore ``ClientError``: is it "busy, retry" or "a condition failed"?

The adapters use these to translate ``ClientError`` into the storage errors of the
port (``functions.ports``: ``StorageUnavailable``, ``StaleVersion``, ...); nothing
outside ``infra/`` ever sees a ``ClientError``. No AWS imports: duck-typed on
``error.response``.
"""

from __future__ import annotations

# Error codes AWS uses for "try again later" rather than "this request is wrong".
RETRYABLE_CODES = frozenset({
    "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
    "InternalServerError", "ServiceUnavailable", "LimitExceededException",
})


def is_retryable(error: BaseException) -> bool:
    """True for a botocore ClientError that means "the service is busy", not "bad request"."""
    response = getattr(error, "response", None)
    return isinstance(response, dict) and response.get("Error", {}).get("Code", "") in RETRYABLE_CODES


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
