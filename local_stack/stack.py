"""Start and stop the whole local stack in-process (used by ``make run``, tests, the bench)."""

from __future__ import annotations

import logging
import os
import socket
import threading
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from typing import Any

from local_stack import pumps
from local_stack.http_adapter import Handler, make_server

LOCAL_ENV = {
    "AWS_ACCESS_KEY_ID": "local",
    "AWS_SECRET_ACCESS_KEY": "local",
    "AWS_SESSION_TOKEN": "local",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_REGION": "us-east-1",
}


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def _atomic_moto_server(host: str, port: int) -> Any:
    """moto's ThreadedMotoServer, with each AWS request handled atomically.

    DynamoDB applies every request (a conditional put, a transaction) atomically; moto's
    backend checks a condition and writes in two unlocked steps, so two racing threads
    (the API and a background pump) could both pass a version check. One lock around
    each request restores DynamoDB's guarantee; requests still interleave freely.
    """
    from moto.server import ThreadedMotoServer

    class AtomicMotoServer(ThreadedMotoServer):
        def _server_entry(self) -> None:
            from moto.moto_server.threaded_moto_server import MotoRequestHandler
            from moto.server import DomainDispatcherApplication, create_backend_app
            from werkzeug.serving import make_server as make_wsgi_server

            app = DomainDispatcherApplication(create_backend_app)
            lock = threading.Lock()

            def atomic(environ: Any, start_response: Any) -> list[bytes]:
                with lock:
                    return list(app(environ, start_response))

            self._server = make_wsgi_server(
                self._ip_address, self._port, atomic, True, request_handler=MotoRequestHandler
            )
            self._server_ready_event.set()
            self._server.serve_forever()

    return AtomicMotoServer(ip_address=host, port=port, verbose=False)


@dataclass
class Emulator:
    """moto's server mode in a thread, with the template's resources created."""

    host: str = "127.0.0.1"
    port: int = 0
    resources: dict[str, str] = field(default_factory=dict)
    streams: bool = False
    _server: Any = None

    @property
    def endpoint(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> Emulator:
        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # moto's request log
        self.port = self.port or free_port(self.host)
        self._server = _atomic_moto_server(self.host, self.port)
        self._server.start()
        os.environ.update(LOCAL_ENV)
        os.environ["AWS_ENDPOINT_URL"] = self.endpoint
        from infra import aws_clients
        from local_stack.template import create_resources

        aws_clients.reset()
        # the local stack reads OUTBOX items from the table itself (local_stack pumps),
        # so it needs no emulated stream; see create_resources
        self.resources = create_resources(aws_clients.dynamodb(), aws_clients.sqs(), streams=self.streams)
        for name, value in self.resources.items():
            if name.isupper():
                os.environ[name] = value
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None


def _routes() -> Handler:
    """API Gateway's routing of template.yaml: the Telegram webhook has its own function."""
    from functions.api.handler import lambda_handler
    from functions.telegram.handler import handler as telegram_handler

    def route(event: dict[str, Any], context: Any) -> dict[str, Any]:
        method = event["requestContext"]["http"]["method"]
        if event.get("rawPath") == "/webhooks/telegram" and method == "POST":
            return telegram_handler(event, context)
        return lambda_handler(event, context)

    return route


@dataclass
class LocalStack:
    host: str = "127.0.0.1"
    port: int = 8000
    pump_interval: float = 1.0
    emulator: Emulator = field(default_factory=Emulator)
    _http: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _loop: pumps.PumpLoop | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self, handler: Handler | None = None) -> LocalStack:
        self.emulator.start()
        os.environ.setdefault("POWERTOOLS_SERVICE_NAME", "convoy")
        from functions import wiring

        wiring.reset()
        if handler is None:
            handler = _routes()
        self.port = self.port or free_port(self.host)
        self._http = make_server(self.host, self.port, handler)
        self._thread = threading.Thread(target=self._http.serve_forever, name="convoy-http", daemon=True)
        self._thread.start()
        pumps.install_all()
        self._loop = pumps.PumpLoop(self.pump_interval)
        self._loop.start()
        return self

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.stop()
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
        self.emulator.stop()
