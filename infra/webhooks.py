"""Outgoing HTTP delivery: signed generic webhooks, Discord webhooks, Telegram sendMessage/sendPhoto.

Every request goes through one guard (`vet_url`) against server-side request
forgery, because webhook URLs are supplied by players: https only; the host is
resolved with `socket.getaddrinfo` and *every* address must be public (not private,
loopback, link-local, reserved, multicast, unspecified or otherwise non-global, nor an
IPv6 address carrying such an IPv4 address: IPv4-mapped, 6to4, Teredo, NAT64, ...;
functions/ports/addresses.py). The connection is then made to the vetted address
itself (TLS still verifies the host name), so a DNS answer that changes between
check and connect cannot redirect us inside the network. Redirects are never
followed. `allow_loopback` (local runs and tests only) additionally admits
loopback addresses, over http or https, and nothing else.

Signing (docs/notifications.md has the receiver's recipe):
``X-Convoy-Signature = hex(HMAC-SHA256(secret, timestamp "." delivery_id "." body))`` where
``timestamp`` is the ASCII decimal Unix time also sent as ``X-Convoy-Timestamp``,
``delivery_id`` the ``X-Convoy-Delivery`` value and ``body`` the exact request bytes;
during a secret rotation the header holds two comma-separated signatures (new, old).

Every request has a wall-clock deadline (the notifier's budget, functions/usecases/
delivery_budget.py) besides the per-read socket timeout.

Non-goals: deciding what to send or to whom (functions/usecases/notifications/notifications.py),
and remembering what was sent (the delivery log).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import http.client
import json
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from functions.ports import addresses

Resolver = Callable[..., list[tuple[Any, ...]]]

SIGNATURE_HEADER = "X-Convoy-Signature"
TIMESTAMP_HEADER = "X-Convoy-Timestamp"
DELIVERY_HEADER = "X-Convoy-Delivery"
DEFAULT_TOLERANCE_SECONDS = 300
DISCORD_CONTENT_LIMIT = 2000
TELEGRAM_TEXT_LIMIT = 4096
TELEGRAM_CAPTION_LIMIT = 1024


class DeliveryError(Exception):
    """A delivery did not happen; the notifier lets SQS retry it (then the DLQ)."""


class UnsafeUrl(DeliveryError):
    """The URL is not https or resolves to an address we refuse to call (SSRF guard)."""


class DeliveryTimedOut(DeliveryError):
    """The whole request (connect, send, every read) outran its wall-clock deadline.

    A per-read socket timeout alone lets a receiver that drips one byte a second hold a
    delivery for minutes (issue 11); the deadline is enforced by closing the socket."""


class DeliveryRejected(DeliveryError):
    """The receiver answered with a non-2xx status."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(f"HTTP {status}: {detail[:200]}")
        self.status = status


# ---------------------------------------------------------------- SSRF guard


@dataclass(frozen=True)
class VettedUrl:
    """A URL that passed the guard, with the address to connect to."""

    scheme: str
    host: str
    port: int
    path: str  # path + query, as sent on the request line
    address: str


def is_public_address(address: str) -> bool:
    """True only for globally routable unicast addresses, every IPv4 address embedded in an
    IPv6 one included (6to4, Teredo, NAT64, ...: functions/ports/addresses.py)."""
    return addresses.is_public_address(address)


def _is_loopback(address: str) -> bool:
    return addresses.is_loopback_address(address)


def vet_url(url: str, *, allow_loopback: bool = False, resolver: Resolver = socket.getaddrinfo) -> VettedUrl:
    """Check a URL against the SSRF rules; raise `UnsafeUrl` or return where to connect."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        raise UnsafeUrl(f"scheme {scheme!r} not allowed")
    if parts.username or parts.password:
        raise UnsafeUrl("credentials in URLs are not allowed")
    host = parts.hostname
    if not host:
        raise UnsafeUrl("URL has no host")
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError as exc:  # never the URL in a message: it may hold a token (issue 11)
        raise UnsafeUrl(f"bad port for host {host!r}") from exc
    try:
        infos = resolver(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise UnsafeUrl(f"cannot resolve {host!r}: {exc}") from exc
    addresses = sorted({str(info[4][0]) for info in infos})
    if not addresses:
        raise UnsafeUrl(f"{host!r} resolves to nothing")
    all_loopback = allow_loopback and all(_is_loopback(a) for a in addresses)
    if scheme == "http" and not all_loopback:
        raise UnsafeUrl("only https URLs are allowed")
    if not all_loopback:
        bad = [a for a in addresses if not is_public_address(a)]
        if bad:
            raise UnsafeUrl(f"{host!r} resolves to non-public address(es) {', '.join(bad)}")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return VettedUrl(scheme=scheme, host=host, port=port, path=path, address=addresses[0])


# ---------------------------------------------------------------- signing


def sign(secret: str, timestamp: str, body: bytes, *, delivery_id: str) -> str:
    """hex(HMAC-SHA256(secret, timestamp "." delivery_id "." body)), one X-Convoy-Signature value.

    The delivery id is inside the signed material, so a receiver that drops repeats by
    ``X-Convoy-Delivery`` cannot be fed a replay under a fresh id (issue 11)."""
    material = timestamp.encode() + b"." + delivery_id.encode() + b"." + body
    return hmac.new(secret.encode(), material, hashlib.sha256).hexdigest()


def signature_header(secrets: Sequence[str], timestamp: str, body: bytes, *, delivery_id: str) -> str:
    """The header value: one signature per secret, comma-separated, the current secret first.

    During a rotation window (docs/notifications.md) the old secret signs too, so a
    receiver still holding it keeps verifying until it switches."""
    return ",".join(sign(secret, timestamp, body, delivery_id=delivery_id) for secret in secrets)


def verify_signature(
    secret: str,
    timestamp: str,
    body: bytes,
    signature: str,
    *,
    delivery_id: str,
    now: float | None = None,
    tolerance: int = DEFAULT_TOLERANCE_SECONDS,
) -> bool:
    """The receiver's check (docs/notifications.md): fresh timestamp, and one of the header's
    signatures equal, each compared in constant time."""
    try:
        sent = int(timestamp)
    except ValueError:
        return False
    current = time.time() if now is None else now
    if abs(current - sent) > tolerance:
        return False
    expected = sign(secret, timestamp, body, delivery_id=delivery_id)
    matches = [hmac.compare_digest(expected, value.strip().lower()) for value in signature.split(",")]
    return any(matches)


# ---------------------------------------------------------------- per address

PER_ADDRESS = 2  # connections at once to one vetted address, from one process


class AddressGates:
    """At most ``PER_ADDRESS`` connections at once to one resolved address (issue 28 item 7:
    many host names, or many registrable domains, pointing at one server must not multiply
    the load we put on it). A send waits for a gate until its deadline, then gives up as
    timed out (the notifier defers or retries it). Gates exist only while used."""

    def __init__(self, per_address: int = PER_ADDRESS) -> None:
        self._per_address = per_address
        self._lock = threading.Lock()
        self._gates: dict[str, tuple[threading.BoundedSemaphore, int]] = {}

    @contextlib.contextmanager
    def gate(self, address: str, timeout: float) -> Iterator[None]:
        with self._lock:
            semaphore, users = self._gates.get(address) or (threading.BoundedSemaphore(self._per_address), 0)
            self._gates[address] = (semaphore, users + 1)
        try:
            if not semaphore.acquire(timeout=max(0.0, timeout)):
                raise DeliveryTimedOut(f"{address}: {self._per_address} deliveries to it are under way")
            try:
                yield
            finally:
                semaphore.release()
        finally:
            with self._lock:
                semaphore, users = self._gates[address]
                if users <= 1:
                    del self._gates[address]
                else:
                    self._gates[address] = (semaphore, users - 1)


GATES = AddressGates()


# ---------------------------------------------------------------- HTTP


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to a vetted IP while SNI and certificate checks use the host name."""

    def __init__(self, host: str, address: str, port: int, timeout: float, context: ssl.SSLContext) -> None:
        super().__init__(host, port=port, timeout=timeout, context=context)
        self._address = address
        self._tls = context

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._tls.wrap_socket(sock, server_hostname=self.host)


@dataclass(frozen=True)
class HttpSettings:
    """Knobs for outgoing calls; `allow_loopback` must stay off outside local runs and tests."""

    allow_loopback: bool = False
    timeout_seconds: float = 5.0
    telegram_bot_token: str = ""
    telegram_api_base: str = "https://api.telegram.org"
    user_agent: str = "Convoy-Notifier/1"


class HttpDelivery:
    """Posts JSON to vetted URLs; one method per kind of target."""

    def __init__(
        self,
        settings: HttpSettings,
        *,
        resolver: Resolver = socket.getaddrinfo,
        clock: Callable[[], float] = time.time,
        tls_context: ssl.SSLContext | None = None,
        gates: AddressGates = GATES,
    ) -> None:
        self._settings = settings
        self._resolver = resolver
        self._clock = clock
        self._tls = tls_context or ssl.create_default_context()
        self._gates = gates  # one set per process: every sender of the process shares it

    def send_webhook(
        self,
        url: str,
        secret: str,
        document: Mapping[str, Any],
        delivery_id: str,
        *,
        previous_secret: str | None = None,
        deadline: float | None = None,
    ) -> None:
        """Generic webhook: JSON body signed with the target's secret (and, while a rotation's
        window is open, its previous one), delivery id signed too, for receiver dedupe."""
        body = json.dumps(document, sort_keys=True, separators=(",", ":")).encode()
        timestamp = str(int(self._clock()))
        secrets = [secret] + ([previous_secret] if previous_secret else [])
        headers = {
            TIMESTAMP_HEADER: timestamp,
            SIGNATURE_HEADER: signature_header(secrets, timestamp, body, delivery_id=delivery_id),
            DELIVERY_HEADER: delivery_id,
        }
        self._post(url, body, headers, deadline)

    def send_discord(self, url: str, text: str, *, deadline: float | None = None) -> None:
        """Discord execute-webhook: `content` (<= 2000 chars), mentions disabled so text can't ping."""
        document = {"content": _clip(text, DISCORD_CONTENT_LIMIT), "allowed_mentions": {"parse": []}}
        self._post(url, json.dumps(document).encode(), {}, deadline)

    def send_telegram(self, chat_id: int | str, text: str, *, deadline: float | None = None) -> None:
        """Bot API sendMessage to a chat id (plain text, no parse mode: player text is not markup)."""
        if not self._settings.telegram_bot_token:
            raise DeliveryError("no Telegram bot token configured")
        base = self._settings.telegram_api_base.rstrip("/")
        url = f"{base}/bot{quote(self._settings.telegram_bot_token, safe=':')}/sendMessage"
        document = {"chat_id": chat_id, "text": _clip(text, TELEGRAM_TEXT_LIMIT)}
        self._post(url, json.dumps(document).encode(), {}, deadline)

    def send_telegram_photo(
        self, chat_id: int | str, png: bytes, caption: str, *, deadline: float | None = None
    ) -> None:
        """Bot API sendPhoto: the PNG uploaded as multipart/form-data, with a plain-text caption."""
        if not self._settings.telegram_bot_token:
            raise DeliveryError("no Telegram bot token configured")
        base = self._settings.telegram_api_base.rstrip("/")
        url = f"{base}/bot{quote(self._settings.telegram_bot_token, safe=':')}/sendPhoto"
        boundary = "convoy-" + hashlib.sha256(png).hexdigest()[:24]
        fields = [("chat_id", str(chat_id)), ("caption", _clip(caption, TELEGRAM_CAPTION_LIMIT))]
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
            for name, value in fields
        ]
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="map.png"\r\n'
            "Content-Type: image/png\r\n\r\n".encode() + png + f"\r\n--{boundary}--\r\n".encode()
        )
        content_type = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        self._post(url, b"".join(parts), content_type, deadline)

    def _post(
        self, url: str, body: bytes, extra_headers: Mapping[str, str], deadline: float | None = None
    ) -> None:
        """POST and read the answer, all before ``deadline`` (a ``time.monotonic()`` instant)."""
        target = vet_url(url, allow_loopback=self._settings.allow_loopback, resolver=self._resolver)
        headers = {
            "Content-Type": "application/json",
            "User-Agent": self._settings.user_agent,
            "Host": target.host if target.port in (80, 443) else f"{target.host}:{target.port}",
            **extra_headers,
        }
        timeout = self._settings.timeout_seconds
        if deadline is not None:
            timeout = min(timeout, deadline - time.monotonic())
            if timeout <= 0:
                raise DeliveryTimedOut(f"POST {target.host}: no time left to start")
        connection: http.client.HTTPConnection
        if target.scheme == "https":
            connection = _PinnedHTTPSConnection(target.host, target.address, target.port, timeout, self._tls)
        else:  # only reachable for loopback with allow_loopback (vet_url enforces it)
            connection = http.client.HTTPConnection(target.address, target.port, timeout=timeout)
        started = time.monotonic()
        with self._gates.gate(target.address, timeout):
            left = timeout - (time.monotonic() - started)
            response, detail = self._exchange(connection, target, body, headers, max(left, 0.001))
        if not 200 <= response.status < 300:
            raise DeliveryRejected(response.status, detail)

    @staticmethod
    def _exchange(connection: http.client.HTTPConnection, target: VettedUrl, body: bytes,
                  headers: Mapping[str, str], timeout: float) -> tuple[http.client.HTTPResponse, str]:
        """POST and read the answer's start, the socket closed by a watchdog at ``timeout``."""
        watchdog = _Watchdog(connection, timeout)
        try:
            connection.request("POST", target.path, body=body, headers=headers)
            response = connection.getresponse()
            detail = response.read(2048).decode("utf-8", "replace")
        except (OSError, http.client.HTTPException) as exc:
            if watchdog.fired:
                raise DeliveryTimedOut(f"POST {target.host}: over its {timeout:.1f} s budget") from exc
            raise DeliveryError(f"POST {target.host}: {exc}") from exc
        except ValueError as exc:  # http.client.InvalidURL quotes the path, which may hold a token
            raise DeliveryError(f"POST {target.host}: {type(exc).__name__}") from None
        finally:
            watchdog.cancel()
            connection.close()
        return response, detail


class _Watchdog:
    """Closes a connection's socket when its wall-clock budget is spent.

    Shutting the socket down from a timer thread wakes any blocked connect, send or read
    in the delivering thread with an error, whatever the receiver's pace."""

    def __init__(self, connection: http.client.HTTPConnection, seconds: float) -> None:
        self._connection = connection
        self.fired = False
        self._timer = threading.Timer(max(seconds, 0.0), self._fire)
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        self.fired = True
        sock = self._connection.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # already closed
                sock.shutdown(socket.SHUT_RDWR)

    def cancel(self) -> None:
        self._timer.cancel()


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
