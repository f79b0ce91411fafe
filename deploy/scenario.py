"""The rehearsal's scenario (issue 27 item 2): the calls a deployed stack gets in its first minutes,
sent to each function as AWS sends them, and the stand-ins for the outside world (a webhook
target, Telegram's Bot API) they reach."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import quote

from deploy.function_process import FunctionProcess
from deploy.iam_calls import Call
from deploy.policies import Findings

OPERATOR_TOKEN = "rehearsal-operator-token-" + "x" * 16
TELEGRAM_SECRET = "rehearsal-telegram-webhook-secret"
TELEGRAM_BOT_TOKEN = "123456:rehearsal-bot-token"
MAIL_LINK_KEY = "rehearsal-mail-link-key-" + "y" * 16
LIVE_STAGE = "live123/live"  # the WebSocket API's id and stage (its endpoint in moto names neither)


def _vapid_key() -> str:
    """A VAPID private key as the operator stores it (raw P-256, base64url)."""
    import base64

    from cryptography.hazmat.primitives.asymmetric import ec

    value = ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value
    return base64.urlsafe_b64encode(value.to_bytes(32, "big")).decode().rstrip("=")


WEB_PUSH_KEY = _vapid_key()


class TraceDaemon:
    """Stands for the X-Ray daemon Lambda runs beside a traced function: keeps the segment
    documents the X-Ray SDK sends it over UDP (``AWS_XRAY_DAEMON_ADDRESS``)."""

    def __init__(self) -> None:
        import socket

        self.segments: list[dict[str, Any]] = []
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._socket.bind(("127.0.0.1", 0))
        self._socket.settimeout(0.2)
        self.address = f"127.0.0.1:{self._socket.getsockname()[1]}"
        self._running = True
        threading.Thread(target=self._receive, daemon=True).start()

    def _receive(self) -> None:
        while self._running:
            try:
                packet = self._socket.recv(65536)
            except OSError:
                continue
            header, _, document = packet.partition(b"\n")  # '{"format": "json", "version": 1}\n{...}'
            try:
                self.segments.append(json.loads(document))
            except ValueError:
                continue

    def stop(self) -> None:
        self._running = False
        self._socket.close()


class Receiver:
    """An HTTP server on loopback that answers 200 and keeps what it was sent (webhook, Telegram)."""

    def __init__(self, failures: int = 0) -> None:
        self.requests: list[tuple[str, bytes]] = []
        received = self.requests
        to_fail = [failures]  # answer 503 to this many requests first (a target that recovers)

        class Handle(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                received.append((self.path, self.rfile.read(length)))
                answer = b'{"ok": true, "result": {"message_id": 1}}'
                failing = to_fail[0] > 0
                to_fail[0] -= 1
                self.send_response(503 if failing else 200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handle)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


# --- the rehearsal -----------------------------------------------------------------------------


@dataclass
class Step:
    function: str
    name: str
    answer: dict[str, Any]
    ok: bool
    detail: str = ""


@dataclass
class Report:
    steps: list[Step] = field(default_factory=list)
    ready: dict[str, dict[str, Any]] = field(default_factory=dict)
    calls: list[Call] = field(default_factory=list)
    findings: Findings = field(default_factory=Findings)
    unsigned: list[str] = field(default_factory=list)
    segments: list[dict[str, Any]] = field(default_factory=list)  # what the X-Ray SDK sent
    logs: Path | None = None


def http_event(
    method: str, path: str, body: Any = None, token: str | None = None, headers: dict[str, str] | None = None
) -> dict[str, Any]:
    """An API Gateway HTTP API (payload 2.0) event, as the HTTP API sends it to a Lambda."""
    from local_stack.http_adapter import to_event

    sent = {
        "host": "abc123.execute-api.us-east-1.amazonaws.com",
        "user-agent": "rehearsal/1.0",
        **(headers or {}),
    }
    if body is not None:
        sent["content-type"] = "application/json"
    if token:
        sent["authorization"] = f"Bearer {token}"
    raw = json.dumps(body).encode() if body is not None else b""
    event = to_event(method, path, sent, raw, "198.51.100.7")
    route = "$default"
    event["routeKey"] = event["requestContext"]["routeKey"] = route
    return event


def _subscription(endpoint: str) -> dict[str, Any]:
    """A browser's PushSubscription.toJSON() for ``endpoint`` (a key pair made here)."""
    import base64
    import os

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    public = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).decode().rstrip("=")

    return {"endpoint": endpoint, "keys": {"p256dh": b64(public), "auth": b64(os.urandom(16))}}


class Scenario:
    """The calls a deployed stack gets in its first minutes: a timed game played through a turn by
    the API, a deadline and the sweeper, its notices relayed and delivered, an account, the sandbox,
    press, a PNG map, the chat bot."""

    def __init__(
        self,
        processes: dict[str, FunctionProcess],
        report: Report,
        running: Any,
        aws: Any,
        names: dict[str, dict[str, str]],
        webhook: Receiver,
        push: Receiver | None = None,
    ) -> None:
        self.p, self.report, self.running, self.aws, self.names = processes, report, running, aws, names
        self.webhook = webhook
        self.push = push or Receiver()
        self.games: dict[str, str] = {}
        self.tokens: dict[str, str] = {}
        self.link = ""
        self.id_token = ""
        self.email = ""
        self.connections: list[str] = []

    def step(
        self,
        function: str,
        name: str,
        event: dict[str, Any],
        expect: Callable[[Any], bool] = lambda result: True,
    ) -> Any:
        answer = self.p[function].invoke(event)
        result = answer.get("result")
        ok = "error" not in answer and expect(result)
        detail = answer.get("error", "") or ("" if ok else json.dumps(result)[:600])
        self.report.steps.append(Step(function, name, answer, ok, detail))
        return result

    def api(
        self,
        name: str,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        status: int = 200,
        headers: dict[str, str] | None = None,
    ) -> Any:
        result = self.step(
            "ApiFunction",
            name,
            http_event(method, path, body, token, headers),
            lambda r: isinstance(r, dict) and r.get("statusCode") == status,
        )
        if not isinstance(result, dict) or result.get("isBase64Encoded") or not result.get("body"):
            return result
        try:
            return json.loads(result["body"])
        except ValueError:
            return result

    def run(self) -> None:
        """Each part in turn; a part that cannot go on (an answer without what the next call needs)
        is one failed step, and the parts after it still run."""
        for part in (
            self.play_a_turn,
            self.accounts_and_sandbox,
            self.live_updates,
            self.deadline_and_sweep,
            self.a_game_ends,
            self.relay_and_notify,
            self.community,
            self.mail_and_push,
            self.telegram,
        ):
            try:
                part()
            except (KeyError, TypeError, OSError, ValueError) as exc:
                self.report.steps.append(
                    Step("-", f"{part.__name__} stopped", {}, False, f"{type(exc).__name__}: {exc}")
                )

    def seated_game(self, label: str, **settings: Any) -> tuple[str, str, dict[str, str]]:
        """A classical game with all seven seats taken: (game id, creator's token, tokens by power)."""
        created = self.api(
            f"{label}: create", "POST", "/games", {"variant": "classical", **settings}, status=201
        )
        game, creator = created["game_id"], created["token"]
        tokens = {
            power: self.api(f"{label}: join {power}", "POST", f"/games/{game}/join", {"power": power})[
                "token"
            ]
            for power in ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
        }
        return game, creator, tokens

    def play_a_turn(self) -> None:
        """Two timed games seated, their first deadlines scheduled by name; the first played
        through its opening turn (orders, press, processing, the reads), and a private game
        left forming."""
        self.api("list variants", "GET", "/variants")
        # two-second phases: the deadlines below are due by the time the deadline function fires
        fast = {"phase_seconds": {"MOVEMENT": 2, "RETREAT": 2, "ADJUSTMENT": 2}}
        game, creator, tokens = self.seated_game(
            "a timed game with a webhook",
            **fast,
            notify=[{"type": "webhook", "url": self.webhook.url + "/hook"}],
        )
        self.games = {"played": game, "deadline": self.seated_game("a second timed game", **fast)[0]}
        self.tokens = tokens
        self.first_deadline_scheduled(game)
        self.deadline_moves_by_name()
        self.orders_and_press(game)
        self.the_turn_is_processed(game, creator)
        self.the_turn_is_read(game)
        self.a_private_game_is_left_forming()

    def orders_and_press(self, game: str) -> None:
        """FRANCE's orders (a stale phase refused, then the same key twice: idempotent), press to
        ENGLAND, and what the players and the public read before the turn is processed."""
        tokens = self.tokens
        key = {"idempotency-key": str(uuid.uuid4())}
        orders = {"orders": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"], "phase": "S1901M"}
        self.api(
            "orders for a stale phase (the key is released)",
            "POST",
            f"/games/{game}/orders",
            {**orders, "phase": "F1901M"},
            tokens["FRANCE"],
            status=409,
            headers=key,
        )
        for attempt in ("submit orders", "submit orders again (same Idempotency-Key)"):
            self.api(attempt, "POST", f"/games/{game}/orders", orders, tokens["FRANCE"], headers=key)
        self.api(
            "send press",
            "POST",
            f"/games/{game}/messages",
            {"to": ["ENGLAND"], "text": "Channel?"},
            tokens["FRANCE"],
            status=201,
        )
        self.api("read press", "GET", f"/games/{game}/messages", token=tokens["ENGLAND"])
        self.api("a player's view", "GET", f"/games/{game}", token=tokens["FRANCE"])
        self.api("orders status", "GET", f"/games/{game}/orders_status")

    def the_turn_is_processed(self, game: str, creator: str) -> None:
        """The operator may not process a phase that is not current; the creator may, once the
        deadline has passed."""
        self.api(
            "the operator may not process another phase",
            "POST",
            f"/games/{game}/process_turn",
            {"phase": "F1901M"},
            OPERATOR_TOKEN,
            status=409,
        )
        time.sleep(2.1)  # the two-second deadline passes: now the creator may process the turn
        self.api(
            "the creator processes the turn",
            "POST",
            f"/games/{game}/process_turn",
            {"phase": "S1901M"},
            creator,
        )

    def the_turn_is_read(self, game: str) -> None:
        """The processed turn's reads, and GERMANY's Telegram link code for the bot's part."""
        self.api("last resolution", "GET", f"/games/{game}/last_resolution")
        self.api("history", "GET", f"/games/{game}/history")
        self.api("events", "GET", f"/games/{game}/events?after=0")
        self.api("the board as PNG", "GET", f"/games/{game}/map/resolution?format=png&width=600")
        self.api("the game list", "GET", "/games")
        self.link = self.api(
            "a Telegram link code", "POST", f"/games/{game}/telegram/link_code", token=self.tokens["GERMANY"]
        )["code"]

    def a_private_game_is_left_forming(self) -> None:
        """A private game refuses a wrong password; nobody ever joins it, so it expires (the
        relay's part checks that it is forgotten)."""
        private = self.api(
            "create a private game",
            "POST",
            "/games",
            {"private": True, "join_password": "swordfish"},
            status=201,
        )
        self.api(
            "a wrong join password",
            "POST",
            f"/games/{private['game_id']}/join",
            {"password": "guess"},
            status=403,
        )
        self.games["forming"] = private["game_id"]  # nobody ever joins it: it expires

    def first_deadline_scheduled(self, game: str) -> None:
        """Issue 28: the join that filled the game scheduled its first deadline, by its name."""
        scheduler = self.aws.client("scheduler")
        group = self.names["DeadlineScheduleGroup"]["Ref"]
        try:
            found = scheduler.get_schedule(Name=f"dl.{game}.S1901M", GroupName=group)
            ok, detail = "at(" in found["ScheduleExpression"], ""
        except Exception as exc:
            ok, detail = False, f"{type(exc).__name__}: {exc}"
        self.report.steps.append(
            Step("ApiFunction", "the last join scheduled the first deadline", {}, ok, detail)
        )

    def deadline_moves_by_name(self) -> None:
        """A timed game paused (its schedules deleted), resumed (created) and extended (replaced
        in place: UpdateSchedule), all by name (issue 29: never a listing)."""
        game, creator, _ = self.seated_game("a timed game the creator pauses",
                                            phase_seconds={"MOVEMENT": 3600})
        self.api("pause (the phase's schedules deleted)", "POST", f"/games/{game}/pause", token=creator)
        self.api("resume (created again)", "POST", f"/games/{game}/resume", token=creator)
        self.api("extend (replaced in place)", "POST", f"/games/{game}/extend", {"seconds": 600}, creator)

    def accounts_and_sandbox(self) -> None:
        email = "ada@example.com"
        self.api(
            "sign up",
            "POST",
            "/auth/signup",
            {"email": email, "password": "Convoy-2026", "display_name": "Ada"},
            status=201,
        )
        code = json.loads((self.running.mailbox.directory / f"{email}.json").read_text())["code"]
        self.api("confirm", "POST", "/auth/confirm", {"email": email, "code": code})
        signed = self.api("sign in", "POST", "/auth/signin", {"email": email, "password": "Convoy-2026"})
        id_token = signed["id_token"] if isinstance(signed, dict) else ""
        self.id_token, self.email = id_token, email
        self.api("who am I", "GET", "/me", token=id_token)
        # issue 33: the account takes ENGLAND's seat of the played game, so its notices reach it
        self.api("bind a seat token to the account", "POST", "/me/seats",
                 {"game_id": self.games["played"], "token": self.tokens["ENGLAND"]}, id_token)
        self.api("notice preferences (and the push key)", "GET", "/me/notifications", token=id_token)
        self.api("press by mail once a day", "PUT", "/me/notifications",
                 {"preferences": {"mail": {"press": "digest"}}}, id_token)
        devices = [
            self.api(f"register push device {n}", "POST", "/me/push_devices",
                     {"subscription": _subscription(f"{self.push.url}/push/{n}"), "label": f"device {n}"},
                     id_token)
            for n in (1, 2, 3)
        ]
        forgotten = devices[2]["device_id"]
        self.api("forget a push device", "DELETE", f"/me/push_devices/{forgotten}", token=id_token)
        self.api("a game by an account", "POST", "/games", {"name": "Friday"}, id_token, status=201)
        self.api("my games", "GET", "/me/games", token=id_token)
        self.api(
            "the sandbox",
            "POST",
            "/adjudicate",
            {
                "compact": "France:APar,FBre|Par,Bre Germany:AMun|Mun",
                "orders": {"FRANCE": ["A PAR - BUR"], "GERMANY": ["A MUN - BUR"]},
            },
        )

    def live_updates(self) -> None:
        """The WebSocket API's events as API Gateway sends them (issue 33): a seat token's, an
        account's and an observer's connections follow the played game, each token in its
        subscribe frame; a forged ID token is refused. There is no $connect or $disconnect route
        (issue 29), so a subscribe is the only event the function gets."""
        from local_stack.live_socket import message_event

        game = self.games["played"]
        for label, token in (("a seat token", self.tokens["FRANCE"]), ("an ID token", self.id_token),
                             ("no token (an observer)", "")):
            connection = f"rehearsal{len(self.connections)}="
            frame = {"action": "subscribe", "game_id": game, **({"token": token} if token else {})}
            self.step("LiveFunction", f"subscribe with {label}",
                      message_event(connection, json.dumps(frame), "subscribe", time.time()),
                      lambda r: isinstance(r, dict) and '"subscribed"' in str(r.get("body")))
            self.connections.append(connection)
        forged = {"action": "subscribe", "game_id": game, "token": "eyJhbGciOiJSUzI1NiJ9.e30.c2ln"}
        self.step("LiveFunction", "subscribe with a forged ID token is refused",
                  message_event("rehearsalforged=", json.dumps(forged), "subscribe", time.time()),
                  lambda r: isinstance(r, dict) and r.get("statusCode") == 401)

    def deadline_and_sweep(self) -> None:
        time.sleep(2.5)  # both games' two-second deadlines pass
        # EventBridge Scheduler's target input, as the schedule was created with it
        done = self.step(
            "DeadlineFunction",
            "a due deadline fires",
            {"game_id": self.games["deadline"], "phase": "S1901M"},
            lambda r: isinstance(r, dict) and r.get("outcome") not in (None, "INVALID_EVENT"),
        )
        self.step(
            "DeadlineFunction",
            "a repeated firing is a no-op",
            {"game_id": self.games["deadline"], "phase": "S1901M"},
            lambda r: isinstance(r, dict) and r.get("outcome") != (done or {}).get("outcome"),
        )
        self.step(
            "DeadlineSweepFunction",
            "the sweep finds the overdue game (rate schedule input)",
            {},
            lambda r: isinstance(r, dict) and self.games["played"] in r.get("outcomes", {}),
        )

    def a_game_ends(self) -> None:
        """Issue 34: the account plays FRANCE and the six others concede; the GAME_ENDED goes
        the outbox's way, and the notifier (relay_and_notify) enters it into the records."""
        created = self.api("a game to finish: create", "POST", "/games", {"scoring": "c_diplo"}, status=201)
        game = created["game_id"]
        self.games["finished"] = game
        self.api("the account takes FRANCE", "POST", f"/games/{game}/join", {"power": "FRANCE"},
                 self.id_token)
        others = ("AUSTRIA", "ENGLAND", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
        tokens = {power: self.api(f"a game to finish: join {power}", "POST", f"/games/{game}/join",
                                  {"power": power})["token"] for power in others}
        for power, token in tokens.items():  # votes open once every seat is taken
            self.api(f"{power} concedes", "POST", f"/games/{game}/votes", {"concede": True}, token)

    def community(self) -> None:
        """Issue 34's reads once the notifier has recorded the finished game: the profile, the
        leaderboard (the by_rating index), the archive, the game as MILA's saved game."""
        me = self.api("who am I (for the profile)", "GET", "/me", token=self.id_token)
        self.api("the account's profile", "GET", f"/players/{me['user_id']}")
        self.api("the leaderboard", "GET", "/leaderboard?variant=classical")
        archive = self.api("the archive", "GET", "/archive?variant=classical")
        found = [g["game_id"] for g in archive.get("games", [])] if isinstance(archive, dict) else []
        self.report.steps.append(Step("NotifierFunction", "the finished game entered the archive", {},
                                      self.games["finished"] in found, f"archive: {found}"))
        self.api("the game as MILA's saved game", "GET", f"/games/{self.games['finished']}/export/mila")

    def relay_and_notify(self) -> None:
        """The stream's records relayed to the outbox queue, then the queue drained through the
        notifier, as Lambda's two event source mappings would."""
        self.relay_the_stream()
        self.notify_from_the_outbox()

    def relay_the_stream(self) -> None:
        """Every stream batch through the relay; among them the expired forming game's META
        deletion, after which the relay has forgotten the rest of that game."""
        from local_stack.stream_relay import StreamRelay

        table = self.names["GameTable"]["Ref"]
        batches: list[Any] = []
        # the game nobody joined reaches its time: the table's TTL deletes its META (issue 28), and
        # the relay, reading that from the stream, forgets the rest of the game
        forming = {"pk": {"S": f"GAME#{self.games['forming']}"}, "sk": {"S": "META"}}
        self.aws.dynamodb().delete_item(TableName=table, Key=forming)

        def relay(event: dict[str, Any], context: Any) -> Any:
            result = self.step(
                "RelayFunction",
                f"a stream batch of {len(event['Records'])}",
                event,
                lambda r: isinstance(r, dict) and not r.get("batchItemFailures"),
            )
            batches.append(result)
            return result

        pump = StreamRelay(
            dynamodb=self.aws.dynamodb,
            streams=lambda: self.aws.client("dynamodbstreams"),
            table=table,
            handler=relay,
        )
        for _ in range(20):
            if not pump():
                break
        if not batches:
            self.report.steps.append(Step("RelayFunction", "a stream batch", {}, False, "no OUTBOX records"))
        left = self.aws.dynamodb().query(
            TableName=table, KeyConditionExpression="pk = :pk",
            ExpressionAttributeValues={":pk": forming["pk"]},
        )["Items"]
        self.report.steps.append(Step("RelayFunction", "a game that never started is forgotten", {},
                                      not left, f"{len(left)} items left" if left else ""))

    def notify_from_the_outbox(self) -> None:
        """The outbox queue drained through the notifier until empty; the webhook, which fails
        once, still gets the game's notices."""
        from infra.queue import drain_once

        def notify(event: dict[str, Any], context: Any) -> Any:
            # the webhook answers 503 once: that message is a batch item failure, retried next drain
            return self.step(
                "NotifierFunction",
                f"a queue batch of {len(event['Records'])}",
                event,
                lambda r: isinstance(r, dict) and len(r.get("batchItemFailures", [])) <= 1,
            )

        for _ in range(20):
            delivered, failed = drain_once(self.aws.sqs(), self.names["OutboxQueue"]["Ref"], notify)
            if not delivered and not failed:
                break
        time.sleep(0.2)
        paths = [path for path, _ in self.webhook.requests]
        ok = len(paths) >= 2
        self.report.steps.append(
            Step(
                "NotifierFunction",
                "the webhook got the game's notices after one 503",
                {},
                ok,
                "" if ok else f"the webhook got {paths}",
            )
        )

    def mail_and_push(self) -> None:
        """What the notifier sent the account (issue 33): live frames to its connections, the turn
        result by mail through SES (kept by the emulator's mailbox), push to its two devices; then
        the mail's one-click unsubscribe link, POSTed as a mail client does."""
        from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends

        from deploy.iam_calls import ACCOUNT, REGION

        posted = apigatewaymanagementapi_backends[ACCOUNT][REGION].connections
        # moto keys a connection by the path's text, where "=" is still "%3D"
        framed = [c for c in self.connections
                  if any(posted.get(k) is not None and posted[k].data for k in (c, quote(c, safe="")))]
        self.report.steps.append(Step("NotifierFunction", "live frames reached the game's connections", {},
                                      framed == self.connections,
                                      f"frames for {framed} of {self.connections}"))
        mails = self.running.mailbox.mails_for(self.email)
        results = [m for m in mails if "resolved" in str(m["Subject"])]
        self.report.steps.append(Step("NotifierFunction", "the turn result was mailed", {}, bool(results),
                                      f"mails: {[str(m['Subject']) for m in mails]}"))
        pushed = sorted({path for path, _ in self.push.requests})
        self.report.steps.append(Step("NotifierFunction", "both devices got a push", {},
                                      pushed == ["/push/1", "/push/2"], f"pushes to {pushed}"))
        if results:
            link = str(results[0]["List-Unsubscribe"]).strip("<>")
            path = "/" + link.split("/", 3)[3]
            self.api("one-click unsubscribe (RFC 8058)", "POST", path,
                     headers={"content-type": "application/x-www-form-urlencoded"})

    def telegram(self) -> None:
        def update(number: int, text: str) -> dict[str, Any]:
            message = {
                "message_id": number,
                "date": int(time.time()),
                "text": text,
                "chat": {"id": 42, "type": "private"},
                "from": {"id": 42, "is_bot": False, "first_name": "Ada"},
            }
            return http_event(
                "POST",
                "/webhooks/telegram",
                {"update_id": 1000 + number, "message": message},
                headers={"x-telegram-bot-api-secret-token": TELEGRAM_SECRET},
            )

        def answered(r: Any) -> bool:
            return isinstance(r, dict) and r.get("statusCode") == 200

        self.step("TelegramFunction", "/help", update(1, "/help"), answered)
        self.step("TelegramFunction", "/link with the seat's code", update(2, f"/link {self.link}"), answered)
        self.step(
            "TelegramFunction",
            "/orders from the linked seat",
            update(3, "/orders A MUN H; F KIE H"),
            answered,
        )
        self.step("TelegramFunction", "/press to a power", update(4, "/msg ENGLAND hello"), answered)
        forged = http_event("POST", "/webhooks/telegram", {"update_id": 9}, headers={})
        self.step(
            "TelegramFunction",
            "a forged Telegram update",
            forged,
            lambda r: isinstance(r, dict) and r.get("statusCode") == 401,
        )
