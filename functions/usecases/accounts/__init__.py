"""Accounts (issue 15): signing in, profiles, and a user's games.

What other rooms use of this area is exported here; inside the area, modules import each
other directly."""

from __future__ import annotations

from functions.usecases.accounts.accounts import (
    AccountDirectory,
    User,
    actor_of,
    rejected,
    seat_fields,
    user_of,
)

__all__ = [
    "AccountDirectory",
    "User",
    "actor_of",
    "rejected",
    "seat_fields",
    "user_of",
]
