"""The identity service's refusal (issue 15, docs/accounts.md), raised by its adapters and by
token checks; a module of its own so a cold API serving a seat token loads no account port."""

from __future__ import annotations


class IdentityRejected(Exception):
    """The identity service or a token check said no: ``code`` is the stable API code
    (``USER_EXISTS``, ``BAD_CREDENTIALS``, ``TOKEN_EXPIRED``, ...; functions/usecases/accounts/accounts.py
    gives each its HTTP status)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
