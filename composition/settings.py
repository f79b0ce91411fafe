"""The settings of this process, read from its environment (the value: functions/settings.py)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from functions.settings import DEFAULT_GAME_TABLE, DEFAULT_IDEMPOTENCY_TABLE, Settings


def load_settings(env: Mapping[str, str] | None = None) -> Settings:
    e = os.environ if env is None else env
    return Settings(
        game_table=e.get("GAME_TABLE", DEFAULT_GAME_TABLE),
        idempotency_table=e.get("IDEMPOTENCY_TABLE", DEFAULT_IDEMPOTENCY_TABLE),
        operator_token=e.get("CONVOY_OPERATOR_TOKEN") or None,
        allow_loopback_webhooks=e.get("CONVOY_ALLOW_LOOPBACK_WEBHOOKS", "") in ("1", "true", "yes"),
        queue_url=e.get("OUTBOX_QUEUE_URL", ""),
        scheduler_group=e.get("SCHEDULER_GROUP", "convoy-deadlines"),
        deadline_function_arn=e.get("DEADLINE_FUNCTION_ARN", ""),
        scheduler_role_arn=e.get("SCHEDULER_ROLE_ARN", ""),
        failed_work_queue_arn=e.get("FAILED_WORK_QUEUE_ARN", ""),
        telegram_bot_token=e.get("TELEGRAM_BOT_TOKEN", ""),
        telegram_webhook_secret=e.get("TELEGRAM_WEBHOOK_SECRET", ""),
        telegram_api_base=e.get("TELEGRAM_API_BASE", "https://api.telegram.org"),
        sweep_scan_limit=int(e.get("SWEEP_SCAN_LIMIT", "500")),
        sweep_grace_seconds=int(e.get("SWEEP_GRACE_SECONDS", "60")),
        public_url=e.get("CONVOY_PUBLIC_URL", "").rstrip("/"),
        sandbox_rate_limit=int(e.get("SANDBOX_RATE_LIMIT", "60")),
        cognito_user_pool_id=e.get("COGNITO_USER_POOL_ID", ""),
        cognito_client_id=e.get("COGNITO_CLIENT_ID", ""),
        cognito_region=e.get("COGNITO_REGION") or e.get("AWS_REGION") or e.get("AWS_DEFAULT_REGION")
        or "us-east-1",
        cognito_jwks_url=e.get("COGNITO_JWKS_URL", ""),
        connections_table=e.get("CONNECTIONS_TABLE", "convoy-connections"),
        live_url=e.get("LIVE_URL", ""),
        live_management_url=e.get("LIVE_MANAGEMENT_URL", "").rstrip("/"),
        mail_from=e.get("MAIL_FROM", ""),
        mail_configuration_set=e.get("MAIL_CONFIGURATION_SET", ""),
        mail_link_key=e.get("MAIL_LINK_KEY", ""),
        web_push_private_key=e.get("WEB_PUSH_PRIVATE_KEY", ""),
        web_push_subject=e.get("WEB_PUSH_SUBJECT") or "mailto:admin@example.org",
        press_mail_delay=int(e.get("PRESS_MAIL_DELAY_SECONDS", "600")),
    )
