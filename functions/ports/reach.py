"""The ports of reaching players where they are (issue 33): live updates over a WebSocket API,
mail through Amazon SES, web push, and the per-user settings and bookkeeping behind them.

Part of ``functions.ports`` (one set of ports): import these names from ``functions.ports``,
which reads this module the first time one is asked for. Standard library only.

Who implements what (docs/notifications.md, "Reaching players"):

- ``ConnectionStore``: the WebSocket API's connections table (infra/live_connections.py);
- ``LivePoster``: API Gateway's Management API, ``PostToConnection`` (infra/live_connections.py);
- ``MailSender``: Amazon SES v2 ``SendEmail`` with raw MIME (infra/ses_mail.py);
- ``PushSender``: ``pywebpush`` with the deployment's VAPID key (infra/web_push.py);
- ``ContactDirectory``: the user pool's verified email (infra/cognito_contacts.py);
- ``ReachStore``: preferences, push devices, batched press and digests in the game table
  (infra/dynamodb/reach_store.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple, Protocol

if TYPE_CHECKING:
    from functions.ports.notifications import OutboxMessage

# ---------------------------------------------------------------- live updates


class Connection(NamedTuple):
    """One subscription as stored: a WebSocket connection following one game, and who opened it
    (an account, or the hash of the seat/creator token it presented, or nobody: an observer)."""

    connection_id: str
    user_id: str | None = None
    token_hash: str | None = None
    game_id: str | None = None
    expires_at: int = 0  # epoch seconds: the table's TTL attribute (when the connection can no longer exist)


class ConnectionStore(Protocol):
    """The connections table: one item per (game, connection) subscription, nothing per
    connection (no ``$connect``/``$disconnect`` route: docs/notifications.md, "Live updates")."""

    def subscribe(self, connection: Connection, game_id: str) -> None:
        """Remember that ``connection`` follows ``game_id`` (one write; a second game is followed
        beside the first, until the connection closes)."""
        ...

    def forget(self, game_id: str, connection_id: str) -> None:
        """Drop one subscription: its connection is gone (a post answered 410). Idempotent."""
        ...

    def of_game(self, game_id: str, now: float) -> list[Connection]:
        """The game's subscriptions not past their ``expires_at`` (TTL deletion lags), in a
        stable order."""
        ...


class ConnectionGone(Exception):
    """The connection no longer exists (API Gateway's 410 ``GoneException``)."""


class LivePoster(Protocol):
    """Sends one frame to one connection; raises ``ConnectionGone`` for a closed one."""

    def post(self, connection_id: str, data: bytes) -> None: ...


# ---------------------------------------------------------------- mail


class MailMessage(NamedTuple):
    """One mail, already rendered: ``headers`` are extra headers (List-Unsubscribe...),
    ``inline_png`` an optional picture the HTML shows as ``cid:map``."""

    to: str
    subject: str
    text: str
    html: str
    headers: Mapping[str, str] = {}
    inline_png: bytes | None = None


class MailRefused(Exception):
    """The mail service refused the address for good (not retried): an unverified or
    suppressed recipient, a malformed address."""


class MailSender(Protocol):
    """Sends one mail; raises ``MailRefused`` for an address that will never take it, anything
    else for a failure worth retrying."""

    def send(self, message: MailMessage) -> str: ...


class ContactDirectory(Protocol):
    """A user's verified email address, or None (unverified, unknown, deleted)."""

    def email_of(self, user_id: str) -> str | None: ...


# ---------------------------------------------------------------- push


class PushDevice(NamedTuple):
    """One browser's push subscription (``PushSubscription.toJSON()``): each device of a user
    has its own, so a notice reaches every one of them (diplicity #113)."""

    device_id: str
    endpoint: str
    p256dh: str
    auth: str
    created_at: str = ""
    label: str = ""


class PushGone(Exception):
    """The push service says the subscription is gone (404/410): drop it."""


class PushSender(Protocol):
    """Encrypts ``payload`` for ``device`` (RFC 8291) and sends it with VAPID (RFC 8292)."""

    def send(self, device: PushDevice, payload: bytes, *, ttl: int, timeout: float) -> None: ...

    def public_key(self) -> str:
        """The VAPID public key, base64url: the browser's ``applicationServerKey``."""
        ...


# ---------------------------------------------------------------- the user's settings and pending mail


class PressBatch(NamedTuple):
    """Press received while away, waiting to go out as one mail: the power's unread messages
    sent ``since`` (ISO time of the message that opened the batch) when it is flushed."""

    user_id: str
    game_id: str
    power: str
    since: str
    opened_at: int


class ReachStore(Protocol):
    """Per-user settings and bookkeeping in the game table (``USER#<sub>`` items)."""

    def preferences(self, user_id: str) -> dict[str, dict[str, str]]:
        """The stored choices ``{channel: {kind: mode}}`` (empty: the defaults apply)."""
        ...

    def save_preferences(self, user_id: str, choices: Mapping[str, Mapping[str, str]]) -> None: ...

    def devices(self, user_id: str) -> list[PushDevice]: ...

    def add_device(self, user_id: str, device: PushDevice, limit: int) -> bool:
        """Store the device (replacing one with the same id); False when ``limit`` are stored."""
        ...

    def remove_device(self, user_id: str, device_id: str) -> None: ...

    def open_press_batch(self, batch: PressBatch) -> bool:
        """Open the batch unless one is open for (user, game): True if this call opened it."""
        ...

    def press_batch(self, user_id: str, game_id: str) -> PressBatch | None:
        """The open batch of (user, game), if any."""
        ...

    def close_press_batch(self, user_id: str, game_id: str) -> None:
        """The batch went out: the next message while away opens a new one."""
        ...

    def add_digest_line(self, user_id: str, day: str, channel: str, line: str) -> None:
        """Remember one line for the user's digest of ``day`` (``YYYY-MM-DD``, UTC) and list the
        user in that day's index."""
        ...

    def digest_users(self, day: str, limit: int) -> list[str]:
        """Users listed in ``day``'s index (at most ``limit``)."""
        ...

    def forget_digest_user(self, day: str, user_id: str) -> None:
        """Take the user off ``day``'s index (their digest has been queued)."""
        ...

    def digest_lines(self, user_id: str, day: str) -> list[tuple[str, str]]:
        """The (channel, line) pairs of the user's digest of ``day``, oldest first."""
        ...

    def drop_digest(self, user_id: str, day: str) -> None:
        """Forget the user's digest of ``day`` (sent)."""
        ...


class DelayedQueue(Protocol):
    """Sends one outbox message that becomes visible after ``delay_seconds`` (SQS DelaySeconds,
    at most 900): how press received while away is gathered into one mail."""

    def send_later(self, message: OutboxMessage, delay_seconds: int) -> None: ...
