"""Everything configurable, for every function, as one value (read by composition/settings.py).

The value lives here, below the handlers that read it (the operator token, the public URL,
the idempotency window, ...); reading it from the environment and SSM is the composition
root's job (composition/settings.py, composition/wiring.py).
"""

from __future__ import annotations

from typing import NamedTuple

DEFAULT_GAME_TABLE = "convoy-games"
DEFAULT_IDEMPOTENCY_TABLE = "convoy-idempotency"


class Settings(NamedTuple):
    """Everything configurable, for every function: one model, read once per process.

    A ``NamedTuple`` (immutable; ``_replace`` for a changed copy), not a frozen dataclass:
    on Python 3.11 the dataclass compiled six generated methods at every cold import, ~2.5 ms
    for these 21 fields (issue 9; tests/contracts/test_cold_start_rules.py)."""

    game_table: str = DEFAULT_GAME_TABLE
    idempotency_table: str = DEFAULT_IDEMPOTENCY_TABLE
    operator_token: str | None = None
    idempotency_ttl_seconds: int = 24 * 3600
    allow_loopback_webhooks: bool = False  # CONVOY_ALLOW_LOOPBACK_WEBHOOKS=1: local runs and tests only
    queue_url: str = ""
    scheduler_group: str = "convoy-deadlines"
    deadline_function_arn: str = ""
    scheduler_role_arn: str = ""
    failed_work_queue_arn: str = ""  # schedules dead-letter here (template.yaml FailedWorkQueue)
    telegram_bot_token: str = ""
    telegram_webhook_secret: str = ""
    telegram_api_base: str = "https://api.telegram.org"
    sweep_scan_limit: int = 500
    sweep_grace_seconds: int = 60  # a due phase is its schedule's for this long (deadlines.SCHEDULE_GRACE)
    public_url: str = ""  # the API's base URL, for links in notices (resolution maps)
    sandbox_rate_limit: int = 60  # SANDBOX_RATE_LIMIT: sandbox requests per caller per minute (issue 19)
    # accounts (issue 15, docs/accounts.md): the user pool and its app client
    cognito_user_pool_id: str = ""
    cognito_client_id: str = ""
    cognito_region: str = "us-east-1"
    cognito_jwks_url: str = ""
    # reaching players (issue 33, docs/notifications.md "Reaching players")
    connections_table: str = "convoy-connections"  # the WebSocket API's connections (TTL)
    live_url: str = ""  # where clients open the socket (GET /games/{id}/live); "" = poll only
    live_management_url: str = ""  # the WebSocket API's Management API endpoint (PostToConnection)
    mail_from: str = ""  # SES sender (on the identity the template names); "" = no mail
    mail_configuration_set: str = ""
    mail_link_key: str = ""  # signs unsubscribe links (secret: MAIL_LINK_KEY_PARAMETER)
    web_push_private_key: str = ""  # VAPID (secret: WEB_PUSH_KEY_PARAMETER); "" = no push
    web_push_subject: str = "mailto:admin@example.org"
    press_mail_delay: int = 600  # PRESS_MAIL_DELAY_SECONDS: press received while away, batched

    @property
    def cognito_issuer(self) -> str:
        return f"https://cognito-idp.{self.cognito_region}.amazonaws.com/{self.cognito_user_pool_id}"
