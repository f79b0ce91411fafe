"""Where a player's mail goes (issue 33): the verified email of the user pool's account.

``ContactDirectory`` over Cognito ``AdminGetUser``: the pool is the one record of an account's
address (Convoy stores no email: infra/dynamodb/account_store.py), so a changed address is used
at once. Only an address with ``email_verified`` = true is answered: mail never goes to an
address its owner has not confirmed. Answers are kept for ``CACHE_SECONDS`` per process, so a
turn result to seven players costs seven lookups once, not one per notice.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

CACHE_SECONDS = 300.0


class CognitoContacts:
    def __init__(self, client: Callable[[], Any], user_pool_id: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._client = client
        self._pool = user_pool_id
        self._clock = clock
        self._cache: dict[str, tuple[float, str | None]] = {}
        self._lock = threading.Lock()

    def email_of(self, user_id: str) -> str | None:
        with self._lock:
            cached = self._cache.get(user_id)
        if cached is not None and self._clock() - cached[0] < CACHE_SECONDS:
            return cached[1]
        found = self._lookup(user_id)
        with self._lock:
            self._cache[user_id] = (self._clock(), found)
        return found

    def _lookup(self, user_id: str) -> str | None:
        from infra import aws_errors

        try:
            answer = self._client().admin_get_user(UserPoolId=self._pool, Username=user_id)
        except aws_errors.ClientError as exc:
            if exc.response.get("Error", {}).get("Code") == "UserNotFoundException":
                return None
            raise
        attributes = {a["Name"]: a["Value"] for a in answer.get("UserAttributes", [])}
        if not answer.get("Enabled", True) or attributes.get("email_verified") != "true":
            return None
        return attributes.get("email")
