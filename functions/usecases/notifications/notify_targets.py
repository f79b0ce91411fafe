"""Validate a game's delivery targets (``settings.notify``) when the game is created.

A player-supplied URL is checked here for what can be known without the network:
``https`` only, no credentials in the URL, a host, an IP-literal host must be a
public address (functions/ports/addresses.py: and so must every IPv4 address inside an
IPv6 one), and a name must not be one that can only be internal
(functions/usecases/notifications/host_names.py: ``metadata.google.internal``, ``169.254.169.254.nip.io``).
The full SSRF guard (DNS resolution, every address public, the
connection pinned to the vetted address) runs on every send (infra/webhooks.py),
because a name's addresses can change after creation. ``allow_loopback`` (local runs
and tests only) admits ``localhost`` / loopback literals over http or https.

Every generic webhook gets its own signing secret, generated here and returned once to
the creator (a leaked receiver cannot forge another's notices); it is stored in its target
(never shown in a view) and can be rotated (functions/usecases/notifications/webhook_secrets.py).

Limits (issue 11: a game's targets must not become a way to flood third parties): at most
``MAX_TARGETS`` per game (422 ``TOO_MANY_TARGETS``) and at most
``MAX_TARGETS_PER_HOST`` webhook/Discord targets naming one host (422
``TOO_MANY_TARGETS_PER_HOST``); each target is retried by the queue, then parked
when it keeps failing (functions/usecases/notifications/notifications.py). A "host" is a registrable
domain (issue 28 item 7: ``x1.victim.com``, ``x2.victim.com``, ... are one party), and the
notifier also limits concurrent sends per registrable domain and per resolved address.
"""

from __future__ import annotations

import re
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from functions.errors import HostTargetLimit, TooManyTargets, TooManyTargetsPerHost, ValidationFailed
from functions.ports import AttemptCounter, addresses
from functions.usecases.notifications.host_names import internal_name_reason, registrable_domain

MAX_TARGETS = 5
MAX_TARGETS_PER_HOST = 2
HOST_GAMES_PER_DAY = 50  # new games a day whose webhook targets may name one host
DAY_SECONDS = 24 * 3600
_CHAT_ID = re.compile(r"^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$")


def _is_loopback_host(host: str) -> bool:
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return addresses.is_loopback_address(host)
    except ValueError:
        return False


def check_url(url: str, *, allow_loopback: bool) -> str:
    """The URL if acceptable at creation time; ``ValidationFailed`` otherwise."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as exc:
        raise ValidationFailed(f"bad URL {url!r}") from exc
    host = parts.hostname or ""
    if not host:
        raise ValidationFailed("a notify URL needs a host")
    if parts.username or parts.password:
        raise ValidationFailed("credentials in notify URLs are not allowed")
    loopback_ok = allow_loopback and _is_loopback_host(host)
    if parts.scheme.lower() != "https" and not (loopback_ok and parts.scheme.lower() == "http"):
        raise ValidationFailed("notify URLs must be https")
    try:
        address = addresses.parse(host)
    except ValueError:
        if host.lower().rstrip(".") == "localhost" and not loopback_ok:
            raise ValidationFailed("notify URLs must not point at loopback addresses") from None
        reason = None if loopback_ok else internal_name_reason(host)
        if reason is not None:  # functions/usecases/notifications/host_names.py
            raise ValidationFailed(f"notify URLs must name a public host: {reason}") from None
        return url
    if not (addresses.is_public(address) or loopback_ok):  # 6to4, NAT64, ... by their IPv4 address
        raise ValidationFailed("notify URLs must not point at private, loopback or link-local addresses")
    return url


def validate_targets(
    raw: Sequence[Mapping[str, Any]], *, allow_loopback: bool
) -> tuple[list[dict[str, Any]], list[str]]:
    """(targets as stored in settings, the new webhook secrets in the order of their targets)."""
    if len(raw) > MAX_TARGETS:
        raise TooManyTargets(f"at most {MAX_TARGETS} notify targets", limit=MAX_TARGETS)
    secrets_made: list[str] = []
    stored: list[dict[str, Any]] = []
    for entry in raw:
        target = _stored_target(entry, allow_loopback=allow_loopback)
        if "secret" in target:
            secrets_made.append(target["secret"])
        stored.append(target)
    _check_hosts(stored)
    return stored, secrets_made


def _stored_target(entry: Mapping[str, Any], *, allow_loopback: bool) -> dict[str, Any]:
    kind = entry.get("type")
    if kind in ("webhook", "discord"):
        url = entry.get("url")
        if not isinstance(url, str) or not url:
            raise ValidationFailed(f"a {kind} target needs a url")
        check_url(url, allow_loopback=allow_loopback)
        if kind == "webhook":
            return {"type": "webhook", "url": url, "secret": secrets.token_urlsafe(32)}
        return {"type": "discord", "url": url}
    if kind == "telegram":
        chat_id = entry.get("chat_id")
        if isinstance(chat_id, bool) or not _CHAT_ID.match(str(chat_id)):
            raise ValidationFailed("a telegram target needs a chat_id (a number or @channelname)")
        return {"type": "telegram", "chat_id": chat_id}
    raise ValidationFailed("notify target type must be webhook, discord or telegram")


def _check_hosts(stored: Sequence[Mapping[str, Any]]) -> None:
    """At most MAX_TARGETS_PER_HOST URL targets per host: per registrable domain
    (host_names.registrable_domain), so ``a.victim.com`` and ``b.victim.com`` are one host."""
    hosts = Counter(
        registrable_domain(urlsplit(t["url"]).hostname or "") for t in stored if isinstance(t.get("url"), str)
    )
    crowded = sorted(host for host, n in hosts.items() if n > MAX_TARGETS_PER_HOST)
    if crowded:
        raise TooManyTargetsPerHost(
            f"at most {MAX_TARGETS_PER_HOST} notify targets per host ({crowded[0]} has {hosts[crowded[0]]})",
            limit=MAX_TARGETS_PER_HOST,
        )


def claim_webhook_hosts(counter: AttemptCounter, raw: Sequence[Mapping[str, Any]], now: float) -> None:
    """Across games, each host may be named by the webhook targets of at most
    ``HOST_GAMES_PER_DAY`` new games a day (a conditional-write counter per host and day);
    past that, 429 ``HOST_TARGET_LIMIT``. Discord and Telegram targets are not counted: they
    are the platforms' own endpoints, rate-limited by them. Issue 11: many anonymous games
    aimed at one third party would otherwise multiply its load without bound."""
    hosts = sorted({  # by registrable domain: many names under one domain are one host (issue 28)
        registrable_domain(urlsplit(entry["url"]).hostname or "")
        for entry in raw if entry.get("type") == "webhook" and isinstance(entry.get("url"), str)
    } - {""})
    for host in hosts:
        if not counter.add(f"notify-host:{host}", now=now, window=DAY_SECONDS, limit=HOST_GAMES_PER_DAY):
            wait = DAY_SECONDS - int(now) % DAY_SECONDS
            raise HostTargetLimit(
                f"{host} is already the webhook host of {HOST_GAMES_PER_DAY} new games today",
                retry_after=wait,
            )
