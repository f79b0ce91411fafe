"""A player's choices of what reaches them, and how (issue 33): per kind of notice and per
channel, ``immediate``, ``digest`` (one mail, or one push, a day) or ``never``; and the signed
one-click unsubscribe links every mail carries.

Kinds (what a player hears about, from the outbox kinds that cause them):

| kind          | caused by                 | who                                         |
|---------------|---------------------------|---------------------------------------------|
| ``reminder``  | ``DEADLINE_APPROACHING``  | only powers that still owe orders when sent |
| ``turn_result`` | ``PHASE_PROCESSED``     | every seated account, with the resolution map |
| ``press``     | ``MESSAGE``               | the channel's other members, while away, batched |
| ``game_over`` | ``GAME_ENDED``            | every seated account                         |

Defaults: every kind ``immediate`` on both channels (a player who never opens the settings
still hears that orders are due). Mail goes only to the account's verified address; push only
to devices the player subscribed from. Unsubscribing from a mail sets that kind's *mail*
choice to ``never``; push is left as it is.

Unsubscribe links (RFC 8058): ``<public url>/mail/unsubscribe?t=<token>`` where the token is
``<user id>.<kind>.<HMAC-SHA256(link key, "unsubscribe:<user id>:<kind>") base64url>``. No
expiry: an old mail's link must still work (RFC 8058 asks that it keep working); it can only
ever set one kind of one user's mail to ``never``, which the user can undo in the settings.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Mapping
from typing import Any

from functions.errors import BadUnsubscribeLink, ValidationFailed
from functions.ports.reach import ReachStore

KINDS = ("reminder", "turn_result", "press", "game_over")
CHANNELS = ("mail", "push")
DAILY = "digest"  # the daily digest mail's link: every kind mailed in the digest stops
MODES = ("immediate", "digest", "never")
DEFAULT_MODE = "immediate"
# outbox kind -> notice kind (anything else reaches no one personally)
KIND_OF_OUTBOX = {
    "DEADLINE_APPROACHING": "reminder",
    "PHASE_PROCESSED": "turn_result",
    "MESSAGE": "press",
    "PRESS_BATCH": "press",
    "GAME_ENDED": "game_over",
}


def effective(stored: Mapping[str, Mapping[str, str]]) -> dict[str, dict[str, str]]:
    """Every channel's mode for every kind: the stored choice, else the default."""
    return {channel: {kind: str((stored.get(channel) or {}).get(kind) or DEFAULT_MODE) for kind in KINDS}
            for channel in CHANNELS}


def mode_of(store: ReachStore, user_id: str, channel: str, kind: str) -> str:
    return effective(store.preferences(user_id))[channel][kind]


def preferences(store: ReachStore, user_id: str) -> dict[str, Any]:
    """The answer of ``GET /me/notifications``: the choices and what they mean."""
    return {"preferences": effective(store.preferences(user_id)), "kinds": list(KINDS), "modes": list(MODES)}


def change(store: ReachStore, user_id: str, choices: Mapping[str, Mapping[str, str]]) -> dict[str, Any]:
    """Set some choices (the others stay); an unknown channel, kind or mode is 422."""
    current = effective(store.preferences(user_id))
    for channel, kinds in choices.items():
        if channel not in CHANNELS:
            raise ValidationFailed(f"unknown channel {channel!r} (one of {', '.join(CHANNELS)})")
        for kind, mode in kinds.items():
            if kind not in KINDS or mode not in MODES:
                raise ValidationFailed(f"{channel}.{kind}: kinds are {', '.join(KINDS)}; "
                                       f"modes are {', '.join(MODES)}")
            current[channel][kind] = mode
    store.save_preferences(user_id, current)
    return preferences(store, user_id)


# --- unsubscribe links ---------------------------------------------------------------------------


def _signature(key: str, user_id: str, kind: str) -> str:
    digest = hmac.new(key.encode(), f"unsubscribe:{user_id}:{kind}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def unsubscribe_token(key: str, user_id: str, kind: str) -> str:
    return f"{user_id}.{kind}.{_signature(key, user_id, kind)}"


def unsubscribe_url(public_url: str, key: str, user_id: str, kind: str) -> str:
    return f"{public_url}/mail/unsubscribe?t={unsubscribe_token(key, user_id, kind)}"


def read_token(key: str, token: str) -> tuple[str, str]:
    """(user id, kind) of a link's token; ``BAD_UNSUBSCRIBE_LINK`` unless it was signed with ``key``."""
    user_id, _, rest = token.partition(".")
    kind, _, signature = rest.partition(".")
    if not key or not user_id or kind not in (*KINDS, DAILY) or not signature:
        raise BadUnsubscribeLink("this unsubscribe link is not one of ours")
    if not hmac.compare_digest(signature, _signature(key, user_id, kind)):
        raise BadUnsubscribeLink("this unsubscribe link is not one of ours")
    return user_id, kind


def unsubscribe(store: ReachStore, key: str, token: str) -> tuple[str, str]:
    """One click: the link's kind of mail set to ``never`` for its user (the digest's link: every
    kind that was mailed in the digest); (user id, kind)."""
    user_id, kind = read_token(key, token)
    current = effective(store.preferences(user_id))
    stopped = [k for k in KINDS if current["mail"][k] == DAILY] if kind == DAILY else [kind]
    if any(current["mail"][k] != "never" for k in stopped):
        current["mail"].update({k: "never" for k in stopped})
        store.save_preferences(user_id, current)
    return user_id, kind
