"""moto's server in a thread, with the template's resources, atomic requests and (optionally) a
data directory that makes its state survive restarts (``local_stack.durable``).

Atomicity: DynamoDB applies every request (a conditional put, a transaction) atomically;
moto's backends check a condition and write in two unlocked steps, so two racing
requests (two API workers, or the API and a pump) could both pass a version check.
moto is not thread-safe here, so one lock is held around each request's dispatch into
moto's backends; HTTP parsing, the API handlers and everything else run concurrently.
The same lock makes a journal entry's order the order in which requests took effect.

The HTTP server is waitress (as for the API), not moto's werkzeug server: werkzeug closes the
connection after every answer ("Connection: close"), so every AWS call of the functions and
the pumps opened a TCP connection and started a thread, tens of thousands an hour under load:
a connection setup on every call of a turn, and a thread (with its own malloc arena) per call
in a process meant to run for days (issue 28 item 14, issue 29). waitress keeps boto3's
connections alive and serves them from a fixed pool of threads. It drops request headers
whose names contain "_"; no AWS API the stack emulates uses one (moto's werkzeug handler kept
them for S3 metadata, which Convoy does not use).

Clients in the emulator's own process (the pumps, the in-process API, the live socket) do not
use the socket at all: ``local_stack.in_process`` hands their requests to the same app, lock
and journal with the environ waitress would have built, and returns waitress's answer.
"""

from __future__ import annotations

import functools
import io
import logging
import os
import socket
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from local_stack import in_process, mail, moto_patches, user_pool
from local_stack.backends import REGION, dynamodb_backend

if TYPE_CHECKING:
    from local_stack.durable import DurableState

SERVER_THREADS = 8  # requests wait for the one lock anyway; threads for the waits around it
IDENT = "convoy-emulator"  # waitress's Server header
LOCAL_ENV = {
    "AWS_ACCESS_KEY_ID": "local",
    "AWS_SECRET_ACCESS_KEY": "local",
    "AWS_SESSION_TOKEN": "local",
    "AWS_DEFAULT_REGION": REGION,
    "AWS_REGION": REGION,
}


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Emulator:
    """The AWS emulator: moto's backends served over HTTP on (host, port)."""

    host: str = "127.0.0.1"
    port: int = 0
    durable: DurableState | None = None
    # where the local user pool "mails" confirmation codes (local_stack/user_pool.py);
    # default: <data dir>/mailbox, or a temporary directory without a data directory
    mailbox_dir: Path | None = None
    resources: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    _stopping: threading.Event = field(default_factory=threading.Event)
    _server: Any = None
    _thread: threading.Thread | None = None

    @functools.cached_property
    def mailbox(self) -> user_pool.Mailbox:
        if self.mailbox_dir is None:
            durable = self.durable
            base = durable.directory if durable is not None else Path(tempfile.mkdtemp(prefix="convoy-"))
            self.mailbox_dir = base / "mailbox"
        return user_pool.Mailbox(self.mailbox_dir)

    @property
    def endpoint(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> Emulator:
        from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
        from waitress.server import create_server

        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's request log
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "Task queue depth": a busy moment
        moto_patches.apply()
        user_pool.install_confirmation_codes(self.mailbox)
        mail.install(self.mailbox)  # what SES sends lands in the mailbox too (issue 33)
        app = DomainDispatcherApplication(create_backend_app)
        if self.durable is not None:
            self.durable.load(app)
        served = self._atomic(app)
        self._server = create_server(served, host=self.host, port=self.port,
                                     threads=SERVER_THREADS, ident=IDENT, expose_tracebacks=False)
        self.port = int(self._server.effective_port)
        in_process.install()  # this process's own clients skip the socket (local_stack/in_process.py)
        in_process.serve(f"{self.host}:{self.port}", served, IDENT)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="moto", daemon=True)
        self._thread.start()
        os.environ.update(LOCAL_ENV)
        os.environ["AWS_ENDPOINT_URL"] = self.endpoint
        from infra import aws_clients
        from local_stack.template import create_resources

        aws_clients.reset()
        self.resources = create_resources(aws_clients.dynamodb(), aws_clients.sqs())
        self.resources.update(user_pool.ensure_user_pool(aws_clients.client("cognito-idp"), self.endpoint))
        for name, value in self.resources.items():
            if name.isupper():
                os.environ[name] = value
        from local_stack.parameters import ensure_local_keys, seed_parameters

        os.environ.setdefault("MAIL_FROM", mail.LOCAL_SENDER)
        os.environ["LIVE_MANAGEMENT_URL"] = self.endpoint  # moto's apigatewaymanagementapi
        mail.verify_sender(aws_clients.client("sesv2"), os.environ["MAIL_FROM"])
        ensure_local_keys()
        seed_parameters(aws_clients.client("ssm"))  # the functions read secrets from SSM, as on AWS
        if self.durable is not None:
            self.durable.start(self.lock)
        return self

    def _atomic(self, app: Any) -> Any:
        durable = self.durable

        def atomic(environ: dict[str, Any], start_response: Any) -> list[bytes]:
            length = int(environ.get("CONTENT_LENGTH") or 0)
            body = environ["wsgi.input"].read(length) if length else b""
            environ["wsgi.input"] = io.BytesIO(body)
            with self.lock:
                if durable is None:
                    return list(app(environ, start_response))
                return durable.dispatch(app, environ, body, start_response)

        return atomic

    def trim_stream(self, table: str, upto_sequence: int) -> None:
        """Forget the table's stream records up to ``upto_sequence`` (the relay's checkpoint)."""
        with self.lock:
            if moto_patches.trim_stream(dynamodb_backend(), table, upto_sequence) and self.durable:
                self.durable.record_trim(table, upto_sequence)

    def _serve(self) -> None:
        server = self._server
        while not self._stopping.is_set():
            server.asyncore.loop(timeout=0.2, map=server._map, use_poll=True, count=1)

    def stop(self) -> None:
        in_process.withdraw(f"{self.host}:{self.port}")
        if self._server is not None:
            self._stopping.set()
            if self._thread is not None:
                self._thread.join(timeout=5)
            self._server.task_dispatcher.shutdown(cancel_pending=False, timeout=5)
            for channel in list(self._server._map.values()):
                channel.close()
            self._server = None
        if self.durable is not None:
            self.durable.close(self.lock)


_current: list[Emulator] = []


def current() -> Emulator | None:
    """The running emulator of this process (the pumps' installers need its trim hook)."""
    return _current[-1] if _current else None


def set_current(emulator: Emulator | None) -> None:
    _current.clear()
    if emulator is not None:
        _current.append(emulator)
