"""A small client for AWS's JSON-protocol services: SigV4-signed ``POST /`` over keep-alive HTTP.

Why not botocore's client (issue 9 item 6, cold start): before its first request a
botocore client costs most of a Lambda's cold start — importing botocore's session,
client, endpoint and urllib3 modules, parsing endpoints.json (1.2 MB), the service model
and its endpoint rule set, compiling their patterns — and its first call walks the model
to serialize and parse. A JSON-protocol service (DynamoDB, SSM, ...) needs none of that:
every operation is ``POST /`` with ``X-Amz-Target: <prefix>.<Operation>`` and a JSON body
that *is* the request; the answer is JSON in the shape botocore returns.

``JsonServiceClient`` is the shared part; a service is a subclass that names its signing
name, target prefix and content type (``infra/dynamodb/client.py``, ``infra/ssm.py``,
``infra/sqs.py``).

What it keeps of botocore, so the adapters cannot tell the difference:
- the methods and parameters (``client.get_item(TableName=..., Key=...)``; any
  snake_case name is the PascalCase operation) and the answers (the JSON plus
  ``ResponseMetadata``; a subclass may decode fields, as DynamoDB does its blobs);
- errors: botocore's own ``ClientError`` with the same ``response`` (``Error.Code``,
  ``Error.Message``, the modelled fields) and ``BotoCoreError`` subclasses when no answer
  comes (connection, timeout, credentials);
- the "standard" retry mode: 3 attempts, exponential backoff with full jitter (capped at
  20 s) on throttling and transient error codes, HTTP 500/502/503/504, connection
  failures and a body whose CRC-32 (``x-amz-crc32``) does not match;
- credentials: the environment (Lambda's, the local stack's), else botocore's own chain
  (profiles, SSO, instance roles), imported only then; endpoint:
  ``AWS_ENDPOINT_URL_<SERVICE>`` or ``AWS_ENDPOINT_URL`` (the local stack), else
  ``https://<service>.<region>.amazonaws.com`` (``.com.cn`` in China).

What it does not do: FIPS or dual-stack endpoints, endpoint discovery, client-side
parameter validation (the service validates and answers ``ValidationException``),
paginators, waiters, timestamp parsing (dates stay numbers), botocore's retry quota.
Convoy needs none. The other services Convoy calls (EventBridge Scheduler's REST-JSON,
Cognito) still use botocore clients, built on first use (``infra/aws_clients.py``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import json
import os
import random
import threading
import time
import zlib
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, ClassVar
from urllib.parse import urlsplit

MAX_ATTEMPTS = 3
MAX_BACKOFF_SECONDS = 20.0
TIMEOUT_SECONDS = 60.0
# botocore's standard retry mode: throttling and transient error codes
RETRY_CODES = frozenset({
    "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
    "TooManyRequestsException", "ProvisionedThroughputExceededException",
    "TransactionInProgressException", "RequestLimitExceeded", "BandwidthLimitExceeded",
    "LimitExceededException", "RequestThrottled", "SlowDown", "PriorRequestNotComplete",
    "EC2ThrottledException", "RequestTimeout", "RequestTimeoutException",
})
RETRY_STATUS = frozenset({500, 502, 503, 504})
Hook = Callable[..., None]


def operation_name(method: str) -> str:
    """``transact_write_items`` -> ``TransactWriteItems`` (botocore's method names)."""
    return "".join(part[:1].upper() + part[1:] for part in method.split("_"))


def endpoint_url(service: str, region: str, env: dict[str, str] | None = None) -> str:
    """The service's endpoint: ``AWS_ENDPOINT_URL_<SERVICE>``, ``AWS_ENDPOINT_URL``, else AWS's."""
    e = os.environ if env is None else env
    found = e.get(f"AWS_ENDPOINT_URL_{service.upper().replace('-', '_')}") or e.get("AWS_ENDPOINT_URL")
    if found:
        return found.rstrip("/")
    suffix = "amazonaws.com.cn" if region.startswith("cn-") else "amazonaws.com"
    return f"https://{service}.{region}.{suffix}"


def _encode(value: Any) -> Any:
    if isinstance(value, bytes | bytearray):  # the JSON protocol sends blobs base64-encoded
        return base64.b64encode(value).decode()
    raise TypeError(f"cannot send {type(value).__name__} to AWS")


# ------------------------------------------------------------------ signing


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def sign(headers: dict[str, str], body: bytes, *, service: str, region: str, access_key: str,
         secret_key: str, when: datetime) -> str:
    """The SigV4 ``Authorization`` header of a ``POST /`` request with ``headers`` (every one signed)."""
    stamp = when.strftime("%Y%m%dT%H%M%SZ")
    day = stamp[:8]
    names = sorted(name.lower() for name in headers)
    lowered = {name.lower(): " ".join(value.split()) for name, value in headers.items()}
    canonical = "\n".join([
        "POST", "/", "", *(f"{name}:{lowered[name]}" for name in names), "",
        ";".join(names), hashlib.sha256(body).hexdigest(),
    ])
    scope = f"{day}/{region}/{service}/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", stamp, scope, hashlib.sha256(canonical.encode()).hexdigest()])
    key = _hmac(_hmac(_hmac(_hmac(("AWS4" + secret_key).encode(), day), region), service), "aws4_request")
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    return (f"AWS4-HMAC-SHA256 Credential={access_key}/{scope}, SignedHeaders={';'.join(names)}, "
            f"Signature={signature}")


class _Credentials:
    """Keys from the environment, else botocore's credential chain (refreshable keys included)."""

    def __init__(self) -> None:
        self._chain: Any = None

    def current(self) -> tuple[str, str, str | None]:
        key, secret = os.environ.get("AWS_ACCESS_KEY_ID"), os.environ.get("AWS_SECRET_ACCESS_KEY")
        if key and secret:
            return key, secret, os.environ.get("AWS_SESSION_TOKEN") or None
        if self._chain is None:
            from botocore.session import get_session

            self._chain = get_session().get_credentials()
        if self._chain is None:
            from botocore.exceptions import NoCredentialsError

            raise NoCredentialsError()
        frozen = self._chain.get_frozen_credentials()
        return frozen.access_key, frozen.secret_key, frozen.token


# ------------------------------------------------------------------ the client


class _Retry(Exception):
    """An attempt failed in a way the standard retry mode retries; ``final`` is what to raise."""

    def __init__(self, final: Exception) -> None:
        super().__init__(str(final))
        self.final = final


class JsonServiceClient:
    """botocore's client interface for one JSON-protocol service; subclasses name the service."""

    SERVICE: ClassVar[str]  # the signing name and endpoint prefix: "dynamodb", "ssm"
    TARGET_PREFIX: ClassVar[str]  # "DynamoDB_20120810.", "AmazonSSM."
    CONTENT_TYPE: ClassVar[str]  # "application/x-amz-json-1.0" or "-1.1"

    def __init__(self, region: str, endpoint: str | None = None, *, max_attempts: int = MAX_ATTEMPTS,
                 timeout: float = TIMEOUT_SECONDS, sleep: Callable[[float], None] = time.sleep) -> None:
        self.region = region
        self.endpoint = endpoint or endpoint_url(self.SERVICE, region)
        parts = urlsplit(self.endpoint)
        self._https = parts.scheme == "https"
        self._host = parts.hostname or ""
        self._port = parts.port
        self._host_header = parts.netloc
        self._max_attempts = max_attempts
        self._timeout = timeout
        self._sleep = sleep
        self._credentials = _Credentials()
        self._local = threading.local()  # one keep-alive connection per thread
        self._before: list[Hook] = []
        self._after: list[Hook] = []

    def __getattr__(self, method: str) -> Callable[..., dict[str, Any]]:
        if method.startswith("_"):
            raise AttributeError(method)
        operation = operation_name(method)

        def call(**params: Any) -> dict[str, Any]:
            return self.call(operation, params)

        call.__name__ = method
        return call

    def add_hooks(self, before: Hook | None = None, after: Hook | None = None) -> None:
        """Observe calls from outside (the benchmark's capacity meter, bench/capacity.py):
        ``before(operation, params)`` may change the parameters; ``after(operation, params,
        answer)`` sees each answer (an error's ``response`` too)."""
        if before is not None:
            self._before.append(before)
        if after is not None:
            self._after.append(after)

    def call(self, operation: str, params: dict[str, Any]) -> dict[str, Any]:
        """Send one operation, retrying as botocore's standard mode does; the parsed answer."""
        for hook in self._before:
            hook(operation, params)
        body = json.dumps(params, default=_encode, separators=(",", ":")).encode()
        try:
            answer = self._answer(operation, body)
        except Exception as error:
            for hook in self._after:
                hook(operation, params, getattr(error, "response", {}))
            raise
        for hook in self._after:
            hook(operation, params, answer)
        return answer

    def decode(self, parsed: Any) -> Any:
        """The parsed JSON as botocore returns it (a subclass decodes its service's blobs)."""
        return parsed

    def _answer(self, operation: str, body: bytes) -> dict[str, Any]:
        attempt = 1
        while True:
            try:
                return self._attempt(operation, body, attempt)
            except _Retry as retry:
                if attempt >= self._max_attempts:
                    raise retry.final from None
            self._sleep(min(MAX_BACKOFF_SECONDS, random.random() * 2 ** (attempt - 1)))
            attempt += 1

    # ------------------------------------------------------------------ one attempt

    def _attempt(self, operation: str, body: bytes, attempt: int) -> dict[str, Any]:
        status, headers, data = self._send(operation, body)
        metadata = {"RequestId": headers.get("x-amzn-requestid", ""), "HTTPStatusCode": status,
                    "HTTPHeaders": headers, "RetryAttempts": attempt - 1}
        expected = headers.get("x-amz-crc32")
        if expected is not None and expected.isdigit() and int(expected) != zlib.crc32(data):
            from botocore.exceptions import ChecksumError

            raise _Retry(ChecksumError(checksum_type="crc32", expected_checksum=expected,
                                       actual_checksum=str(zlib.crc32(data))))
        try:
            parsed: dict[str, Any] = json.loads(data) if data else {}
        except ValueError:
            parsed = {}
        if status < 300:
            answer: dict[str, Any] = self.decode(parsed)
            answer["ResponseMetadata"] = metadata
            return answer
        error = self._client_error(operation, status, parsed, data, metadata)
        code = error.response["Error"]["Code"]
        if code in RETRY_CODES or status in RETRY_STATUS:
            raise _Retry(error)
        raise error

    def _client_error(self, operation: str, status: int, parsed: dict[str, Any], data: bytes,
                      metadata: dict[str, Any]) -> Any:
        from botocore.exceptions import ClientError

        code = str(parsed.get("__type", "")).rpartition("#")[2] or str(status)
        message = str(parsed.get("message", parsed.get("Message", "")) or data[:200].decode(errors="replace"))
        fields = {k: self.decode(v) for k, v in parsed.items() if k != "__type"}  # as botocore keeps them
        response: Any = {**fields, "Error": {"Code": code, "Message": message}, "ResponseMetadata": metadata}
        return ClientError(response, operation)

    def _send(self, operation: str, body: bytes) -> tuple[int, dict[str, str], bytes]:
        key, secret, token = self._credentials.current()
        when = datetime.now(UTC)
        headers = {"Content-Type": self.CONTENT_TYPE, "Host": self._host_header,
                   "X-Amz-Date": when.strftime("%Y%m%dT%H%M%SZ"),
                   "X-Amz-Target": self.TARGET_PREFIX + operation}
        if token:
            headers["X-Amz-Security-Token"] = token
        headers["Authorization"] = sign(headers, body, service=self.SERVICE, region=self.region,
                                        access_key=key, secret_key=secret, when=when)
        headers["User-Agent"] = "convoy"
        reused = getattr(self._local, "connection", None) is not None
        try:
            return self._exchange(body, headers)
        except (ConnectionError, http.client.HTTPException) as error:
            self._close()
            if reused:  # the server closed an idle keep-alive connection: once more on a new one
                try:
                    return self._exchange(body, headers)
                except (ConnectionError, http.client.HTTPException, OSError) as again:
                    self._close()
                    raise _Retry(self._no_answer(again)) from None
            raise _Retry(self._no_answer(error)) from None
        except OSError as error:  # refused, unreachable, timed out
            self._close()
            raise _Retry(self._no_answer(error)) from None

    def _exchange(self, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        connection = self._connection()
        connection.request("POST", "/", body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        if response.getheader("connection", "").lower() == "close":
            self._close()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data

    def _connection(self) -> http.client.HTTPConnection:
        found: http.client.HTTPConnection | None = getattr(self._local, "connection", None)
        if found is None:
            if self._https:
                import ssl

                found = http.client.HTTPSConnection(self._host, self._port, timeout=self._timeout,
                                                    context=ssl.create_default_context())
            else:
                found = http.client.HTTPConnection(self._host, self._port, timeout=self._timeout)
            self._local.connection = found
        return found

    def _close(self) -> None:
        found = getattr(self._local, "connection", None)
        self._local.connection = None
        if found is not None:
            found.close()

    def _no_answer(self, error: BaseException) -> Exception:
        from botocore.exceptions import ConnectionClosedError, EndpointConnectionError, ReadTimeoutError

        if isinstance(error, TimeoutError):
            return ReadTimeoutError(endpoint_url=self.endpoint, error=error)
        if isinstance(error, http.client.HTTPException | ConnectionResetError | BrokenPipeError):
            return ConnectionClosedError(endpoint_url=self.endpoint, error=error)
        return EndpointConnectionError(endpoint_url=self.endpoint, error=error)
