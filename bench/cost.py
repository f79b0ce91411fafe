"""What Convoy costs on AWS, from measurements: a scripted game played through the local stack
with a metering client, priced by a dated price table (issue 29 item 4).

How it measures. The in-process local stack (moto, the API over HTTP, the pumps that stand for
Scheduler, the table's stream and SQS, the WebSocket API) serves one timed game with one-day
phases: ``--players`` seats, ``--submissions`` order sets, the players' reading as the client
``--client`` says (``live``, the measured checkout's web client: ``--visits`` page visits per
player of ``--visit-minutes``, each a socket that subscribes, keeps itself open and receives the
pushes of the visit's own actions, no polling, as that checkout's web/src/live.ts does it:
``LiveClient``; ``poll``, the issue's
client: ``--polls`` player views), ``--messages`` press messages and as many inbox reads, ``--map-views``
fetches of the last phase's picture (the link every notice carries), then the phase's reminder
and its deadline fire as the deadline function runs them (the use cases, in process, at the
reminder's and the deadline's time), and the pumps relay and deliver what the turn wrote.
``bench/capacity.py`` counts every AWS call of every thread by botocore's events, with DynamoDB
read and write units by DynamoDB's pricing rules; the HTTP client counts requests and the bytes
sent back (compressed where the API compressed them). One game's creation and joins are measured
too and spread over ``--game-phases``.

How it prices. Per phase of one game, the usage above; per month, ``--games`` games each
playing a phase every ``--phase-hours``. Every line is list price without free tiers, as
``PRICES`` says and dates; Cognito is left out (sign-ins are not per phase). Lambda time is the
time the requests took here: the emulator's, not AWS's, so that line is an upper bound. CloudFront
serves a public map picture from its cache at ``--cache-hit`` rate only where the template lets it
(a cache policy other than CachingDisabled on the map routes); everything else reaches the API.

Before and after: ``--checkout DIR`` measures another checkout's code and template (this metering
and pricing, that product), ``--compare DIR`` prints both bills side by side. Today's main before
issue 29 is commit f0fa0cc: ``git archive f0fa0cc | tar -x -C /tmp/before`` then
``.venv/bin/python bench/cost.py --compare /tmp/before``.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import math
import os
import random
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
SECONDS_PER_MONTH = 30 * 86400
LAMBDA_GB = 0.5  # template.yaml Globals: MemorySize 512
SWEEPS_PER_MONTH = SECONDS_PER_MONTH // 300  # the backstop sweeper's rate(5 minutes)

# List prices, us-east-1, without free tiers, as AWS's pricing pages gave them when this table
# was written (checked 2026-12-02 against the figures this project already used; DynamoDB's
# on-demand prices are those after the November 2024 reduction). Check
# https://aws.amazon.com/<service>/pricing/ before relying on a total.
PRICES_DATE = "2026-12-02"
PRICES: dict[str, tuple[float, str]] = {
    "cloudfront_request": (0.01 / 10_000, "CloudFront HTTPS request (PriceClass_100: US, Canada, Europe)"),
    "cloudfront_gb": (0.085, "CloudFront data transfer out, per GB (first 10 TB)"),
    "http_api_request": (1.00 / 1e6, "API Gateway HTTP API request (first 300 M a month)"),
    "lambda_request": (0.20 / 1e6, "Lambda request"),
    "lambda_gb_second": (0.0000133334, "Lambda arm64 duration, per GB-second"),
    "snapstart_cache_gb_second": (0.0000015046, "Lambda SnapStart (Python) snapshot cache, per GB-second"),
    "dynamodb_write_unit": (0.625 / 1e6, "DynamoDB on-demand write request unit"),
    "dynamodb_read_unit": (0.125 / 1e6, "DynamoDB on-demand read request unit"),
    "dynamodb_gb_month": (0.25, "DynamoDB storage, per GB-month"),
    "websocket_message": (1.00 / 1e6, "API Gateway WebSocket message, per 32 KB (first 1 billion)"),
    "websocket_minute": (0.25 / 1e6, "API Gateway WebSocket connection minute"),
    "scheduler_invocation": (1.00 / 1e6, "EventBridge Scheduler invocation (its API calls cost nothing)"),
    "sqs_request": (0.40 / 1e6, "SQS standard request (a batch of up to 10 is one)"),
    "xray_trace": (5.00 / 1e6, "X-Ray trace recorded"),
    "logs_gb": (0.50, "CloudWatch Logs ingestion, per GB"),
}
LOG_BYTES_PER_INVOCATION = 400  # Lambda's START, END and REPORT lines and our INFO line or two
RELAY_SECONDS = 0.05  # a relay or notifier batch's own code time, assumed (not measured here)
KEEPALIVE_MINUTES = 5  # web/src/live.ts KEEPALIVE_MS: a page sends a ping every 5 minutes
SOCKET_MESSAGE_BYTES = 32 * 1024  # API Gateway WebSocket messages are billed per 32 KB

# Lambda duration is our own code's time, measured here (a request's time less the time its AWS
# calls took in the emulator), plus, for each AWS call the functions make, the time that call
# takes on AWS. moto's own time is not AWS's (it is several times slower on this machine), so it
# is never billed. The per-call figures, in seconds, and where they come from:
# - DynamoDB: "single-digit millisecond" reads and writes is DynamoDB's documented promise
#   (aws.amazon.com/dynamodb); we take 5 ms for a single-item call or a query, 10 ms for a
#   transaction or a batch (a transaction is two round trips inside DynamoDB: prepare, commit);
# - SQS: tens of milliseconds for SendMessage/DeleteMessage in the SQS developer guide's latency
#   notes; we take 20 ms for a call (a batch is one call);
# - EventBridge Scheduler: AWS publishes no latency; we take 30 ms for a CreateSchedule or
#   DeleteSchedule (an assumption: a control-plane write, slower than a data-plane one);
# - a frame the notifier posts to a socket (API Gateway's PostToConnection): 20 ms, assumed.
AWS_CALL_SECONDS: dict[str, float] = {"dynamodb": 0.005, "sqs": 0.020, "scheduler": 0.030}
AWS_BATCH_SECONDS = 0.010  # DynamoDB TransactWriteItems, TransactGetItems, BatchGetItem, BatchWriteItem
POST_SECONDS = 0.020  # PostToConnection, per call (a frame delivered, or a 410 from a closed socket)
DYNAMODB_BATCHES = frozenset({"TransactWriteItems", "TransactGetItems", "BatchGetItem", "BatchWriteItem"})

# X-Ray: Lambda's own sampling (the first invocation each second, then 5 % of the rest), which a
# function cannot change (AWS Lambda guide: "You cannot configure the X-Ray sampling rate for your
# functions"); an AWS::XRay::SamplingRule reaches API Gateway REST, AppSync and SDK-run hosts only.
LAMBDA_DEFAULT_SAMPLING = (1.0, 0.05)  # (reservoir per second, fixed rate)


# --- the measured game ---------------------------------------------------------------------------


@dataclass
class Usage:
    """What one game phase (or one game's setup) used."""

    requests: Counter[str] = field(default_factory=Counter)  # HTTP requests by kind
    bytes_out: int = 0
    api_seconds: float = 0.0  # our own code's time in the API's and the live function's invocations
    function_seconds: float = 0.0  # our own code's time in the deadline function's firings
    firings: int = 0  # deadline and reminder schedules that fired
    calls: Counter[str] = field(default_factory=Counter)  # "service:Operation" -> count
    read_units: float = 0.0
    write_units: float = 0.0
    # DynamoDB units by what spent them: each kind of request, "firings", and the pumps ("relay")
    reads_by: Counter[str] = field(default_factory=Counter)
    writes_by: Counter[str] = field(default_factory=Counter)
    # the live socket (issue 33): billed messages both ways (32 KB units), connection minutes,
    # and the live function's invocations (each subscribe; $connect and $disconnect where the
    # measured checkout's API has those routes)
    socket_messages: float = 0.0
    socket_minutes: float = 0.0
    socket_invocations: float = 0.0
    pushes: float = 0.0  # frames the notifier posted that reached a socket (PostToConnection)

    def scaled(self, by: float) -> Usage:
        return Usage(Counter({k: v * by for k, v in self.requests.items()}), int(self.bytes_out * by),
                     self.api_seconds * by, self.function_seconds * by, int(self.firings * by),
                     Counter({k: v * by for k, v in self.calls.items()}), self.read_units * by,
                     self.write_units * by, Counter({k: v * by for k, v in self.reads_by.items()}),
                     Counter({k: v * by for k, v in self.writes_by.items()}),
                     self.socket_messages * by, self.socket_minutes * by, self.socket_invocations * by,
                     self.pushes * by)

    def add(self, other: Usage) -> None:
        self.requests.update(other.requests)
        self.calls.update(other.calls)
        self.reads_by.update(other.reads_by)
        self.writes_by.update(other.writes_by)
        self.bytes_out += other.bytes_out
        self.api_seconds += other.api_seconds
        self.function_seconds += other.function_seconds
        self.firings += other.firings
        self.read_units += other.read_units
        self.write_units += other.write_units
        self.socket_messages += other.socket_messages
        self.socket_minutes += other.socket_minutes
        self.socket_invocations += other.socket_invocations
        self.pushes += other.pushes


class Client:
    """HTTP to the stack; ``own`` is a meter of the requests' own calls (not the pumps')."""

    def __init__(self, base: str, usage: Usage, own: Any) -> None:
        import requests

        self.base, self.usage, self.own = base, usage, own
        self.meter: Any = None  # every thread's meter (the live client waits for the pumps on it)
        self.session = requests.Session()

    def __call__(self, kind: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        before = self.own.snapshot()
        started = time.perf_counter()
        answer = self.session.request(method, self.base + path, json=body, headers=headers, timeout=60)
        spent = self.own.snapshot() - before
        self.usage.api_seconds += code_seconds(time.perf_counter() - started, spent)
        self.usage.reads_by[kind] += spent.reads
        self.usage.writes_by[kind] += spent.writes
        self.usage.requests[kind] += 1
        sent = answer.headers.get("content-length")
        self.usage.bytes_out += (int(sent) if sent is not None else len(answer.content)) + 400  # + headers
        if answer.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {answer.status_code} {answer.text[:300]}")
        if answer.headers.get("content-type", "").startswith("application/json"):
            return answer.json()
        return None


def code_seconds(wall: float, spent: Any) -> float:
    """Our own code's share of ``wall``: less the time its AWS calls (``spent``, a meter's
    reading) took in the emulator, which the bill replaces with AWS's (``aws_call_seconds``)."""
    return max(0.0, wall - float(sum(spent.seconds.values())))


def aws_call_seconds(calls: Counter[str]) -> float:
    """What ``calls`` ("service:Operation" -> count) take on AWS, by AWS_CALL_SECONDS."""
    total = 0.0
    for name, n in calls.items():
        service, operation = name.split(":", 1)
        if service == "dynamodb" and operation in DYNAMODB_BATCHES:
            total += n * AWS_BATCH_SECONDS
        else:
            total += n * AWS_CALL_SECONDS.get(service, 0.0)
    return total


class FixedClock:
    def __init__(self, at: datetime) -> None:
        self.at = at

    def now(self) -> datetime:
        return self.at


def _load_meter() -> Any:
    """This repository's bench/capacity.py, whatever checkout the product is imported from."""
    spec = importlib.util.spec_from_file_location("convoy_cost_meter", HERE / "capacity.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _legal(view: dict[str, Any], rng: random.Random) -> list[str]:
    by_unit: dict[str, list[str]] = {}
    for order in view.get("legal_orders") or []:
        by_unit.setdefault(" ".join(order.split()[:2]), []).append(order)
    return [rng.choice(options) for options in by_unit.values()]


# The pumps' polling: on AWS Lambda's event source mappings read the stream (free) and long-poll
# the queue (a few hundred thousand requests a month, whatever the load: SQS_POLLING_PER_MONTH).
POLLING = frozenset({"dynamodbstreams:GetRecords", "dynamodbstreams:GetShardIterator",
                     "dynamodbstreams:DescribeStream", "dynamodb:DescribeTable", "sqs:ReceiveMessage",
                     "sqs:GetQueueAttributes"})
SQS_POLLING_PER_MONTH = 5 * 3 * 60 * 24 * 30  # five pollers, a 20-second long poll each


def _work(meter: Any) -> int:
    return sum(n for (service, op), n in meter.snapshot().calls.items() if f"{service}:{op}" not in POLLING)


def _settle(meter: Any, quiet: float = 1.5, give_up: float = 30.0) -> None:
    """Wait for the pumps to relay and deliver what was written: no call but their polling for
    ``quiet`` seconds."""
    started = last = time.monotonic()
    seen = _work(meter)
    while time.monotonic() - last < quiet and time.monotonic() - started < give_up:
        time.sleep(0.25)
        now = _work(meter)
        if now != seen:
            seen, last = now, time.monotonic()


def _take(meter: Any, before: Any, usage: Usage) -> None:
    """What all threads spent since ``before``; what no request or firing spent was the pumps'."""
    spent = meter.snapshot() - before
    usage.calls.update({f"{service}:{op}": n for (service, op), n in spent.calls.items()
                        if f"{service}:{op}" not in POLLING})
    usage.read_units += spent.reads
    usage.write_units += spent.writes
    usage.reads_by["relay and notifier"] += max(0.0, spent.reads - sum(usage.reads_by.values()))
    usage.writes_by["relay and notifier"] += max(0.0, spent.writes - sum(usage.writes_by.values()))


def measure(args: argparse.Namespace) -> tuple[Usage, Usage]:
    """(one game's setup, the mean of ``args.phases`` phases)."""
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "ERROR")
    os.environ["CONVOY_SWEEP_SECONDS"] = "0"  # the sweeper is priced as its rate, not played
    from local_stack.stack import LocalStack

    stack = LocalStack(port=0, pump_interval=0.25).start()
    try:
        wiring = _wiring()

        capacity = _load_meter()
        settings = wiring.settings()
        table = settings.game_table
        # the live socket's connections table (issue 33): its writes are the live function's
        connections = tuple(t for t in [getattr(settings, "connections_table", None)] if t)
        meter = capacity.meter_all(table, also=connections)  # every thread: what the bill counts
        own = capacity.meter_all(table, ignore=("convoy-pumps", "convoy-timers"), also=connections)
        _meter_posts(meter, settings)
        return _play(stack.url, meter, own, args)
    finally:
        stack.stop()


def _meter_posts(meter: Any, settings: Any) -> None:
    """Count the notifier's PostToConnection calls (the Management API client it will use,
    infra/aws_clients.py caches one per endpoint), those a closed socket refused (410) too: a
    checkout without ``$disconnect`` forgets a closed connection when a post meets it."""
    url = getattr(settings, "live_management_url", "")
    if url:
        from infra import aws_clients

        meter.attach(aws_clients.client("apigatewaymanagementapi", url))


def _play(base: str, meter: Any, own: Any, args: argparse.Namespace) -> tuple[Usage, Usage]:
    rng = random.Random(args.seed)
    setup = Usage()
    call = Client(base, setup, own)
    before = meter.snapshot()
    seconds = dict.fromkeys(("MOVEMENT", "RETREAT", "ADJUSTMENT"), int(3600 * args.phase_hours))
    created = call("create", "POST", "/games", body={"variant": "classical", "phase_seconds": seconds,
                                                     "civil_disorder_after": 0})
    game_id = created["game_id"]
    seats = POWERS[:args.players]
    tokens = {p: call("join", "POST", f"/games/{game_id}/join", body={"power": p})["token"] for p in seats}
    # the live client asks where the socket is once per game and remembers it (web/src/live.ts)
    # a client that remembers the socket's address asks once per game and seat (web/src/live.ts);
    # one that does not asks each visit (_live_phase), and this first ask is not billed
    live_url = None
    if args.client == "live":
        if live_client(_checkout_root()).remembers_address:
            live_url = [call("live url", "GET", f"/games/{game_id}/live")["url"] for _ in seats][0]
        else:
            live_url = call.session.get(f"{base}/games/{game_id}/live", timeout=60).json()["url"]
    _settle(meter)
    _take(meter, before, setup)
    phases: list[Usage] = []
    for _ in range(args.phases):
        usage = Usage()
        before = meter.snapshot()
        client = Client(base, usage, own)
        client.meter = meter
        _phase(client, game_id, tokens, rng, args, usage, live_url)
        _settle(meter)
        _take(meter, before, usage)
        phases.append(usage)
    mean = Usage()
    for usage in phases:
        mean.add(usage)
    return setup, mean.scaled(1 / len(phases))


def _phase(call: Client, game_id: str, tokens: dict[str, str], rng: random.Random, args: argparse.Namespace,
           usage: Usage, live_url: str | None) -> None:
    """One phase of the client ``args.client`` says, then map views, the reminder and the deadline."""
    seats = list(tokens)
    if args.client == "poll":
        views = {p: call("poll", "GET", f"/games/{game_id}", tokens[p]) for p in seats}
        first = views[seats[0]]
        _polling_phase(call, game_id, tokens, views, first["phase"], rng, args)
    else:
        assert live_url, "the live client needs the API's socket address"
        first = _live_phase(call, game_id, tokens, live_url, rng, args, usage)
    phase = first["phase"]
    deadline = datetime.fromisoformat(str(first["deadline"]).replace("Z", "+00:00"))
    last = _last(call, game_id)
    for n in range(args.map_views if last else 0):
        picture = f"/games/{game_id}/map/resolution?phase={last}&format=png{_notice_width()}"
        call("map", "GET", picture, tokens[seats[n % len(seats)]])
    before = call.own.snapshot()
    started = time.perf_counter()
    _fire(game_id, phase, deadline, usage)
    spent = call.own.snapshot() - before
    usage.function_seconds += code_seconds(time.perf_counter() - started, spent)
    usage.reads_by["deadline and reminder"] += spent.reads
    usage.writes_by["deadline and reminder"] += spent.writes


def _notice_width() -> str:
    """The width the measured product's PHASE_PROCESSED notice asks its picture at (since issue
    29: NOTICE_MAP_WIDTH), as the link's query; the route's default before."""
    for where in ("functions.usecases.turns.turn_record", "functions.usecases.turns.process_turn"):
        try:  # the module, not the package's process_turn (a function of that name)
            module = importlib.import_module(where)
        except ImportError:  # an older checkout's layout
            continue
        width = getattr(module, "NOTICE_MAP_WIDTH", None)
        if width:
            return f"&width={width}"
    return ""


def _polling_phase(call: Client, game_id: str, tokens: dict[str, str], views: dict[str, Any], phase: str,
                   rng: random.Random, args: argparse.Namespace) -> None:
    """The issue's polling client: every player views the game (the first of the polls), then
    order sets and the rest of the polls in a random order, press and its inbox reads."""
    seats = list(tokens)
    steps = ["poll"] * max(0, args.polls - len(seats)) + ["submit"] * args.submissions
    rng.shuffle(steps)
    for n, step in enumerate(steps):
        power = seats[n % len(seats)]
        if step == "poll":
            call("poll", "GET", f"/games/{game_id}", tokens[power])
        elif views[power]["legal_orders"]:
            call("submission", "POST", f"/games/{game_id}/orders", tokens[power],
                 {"orders": _legal(views[power], rng), "phase": phase})
    for n in range(args.messages):
        _message(call, game_id, tokens, n)


def _message(call: Client, game_id: str, tokens: dict[str, str], n: int) -> None:
    seats = list(tokens)
    sender, to = seats[n % len(seats)], seats[(n + 1) % len(seats)]
    call("message", "POST", f"/games/{game_id}/messages", tokens[sender], {"to": [to], "text": "An offer."})
    call("inbox", "GET", f"/games/{game_id}/messages?limit=50", tokens[to])


def _live_phase(call: Client, game_id: str, tokens: dict[str, str], url: str, rng: random.Random,
                args: argparse.Namespace, usage: Usage) -> dict[str, Any]:
    """The web client as it behaves now (web/src/components/GamePage.tsx, live.ts): a page visit
    opens the socket at the address it remembers (asked once per game: ``_play``) and subscribes;
    the answer is the page's view (no GET beside it); a ping every ``KEEPALIVE_MINUTES`` keeps the
    socket open (no function, no answer); nothing is polled while the socket is up. A visit's
    actions (order sets, press and its inbox read) are made with the socket open, from the view
    the visit was given, so their frames are counted; visits follow each other (players rarely
    overlap in a day), and the deadline fires with no page open. Returns the first view."""
    seats = list(tokens)
    actions: list[tuple[str, int]] = [("submit", n) for n in range(args.submissions)]
    actions += [("message", n) for n in range(args.messages)]
    rng.shuffle(actions)
    visits = [(p, v) for v in range(args.visits) for p in seats]
    todo: dict[tuple[str, int], list[tuple[str, int]]] = {visit: [] for visit in visits}
    for n, action in enumerate(actions):
        todo[visits[n % len(visits)]].append(action)
    first: dict[str, Any] | None = None
    client = live_client(_checkout_root())
    for power, visit in visits:
        if not client.view_from_subscribe:  # the page's own GET beside the socket
            call("page view", "GET", f"/games/{game_id}", tokens[power])
        if not client.remembers_address:  # where the socket is, asked every visit
            url = call("live url", "GET", f"/games/{game_id}/live")["url"]
        with LiveVisit(url, tokens[power], game_id, usage, call, client.token_in_frame) as socket:
            view = socket.view
            first = first or view
            for _ in range(keepalives(args.visit_minutes)):
                socket.ping() if client.pings else socket.subscribe()
            for kind, n in todo[(power, visit)]:
                if kind == "message":
                    _message(call, game_id, tokens, n)
                elif view["legal_orders"]:
                    call("submission", "POST", f"/games/{game_id}/orders", tokens[power],
                         {"orders": _legal(view, rng), "phase": view["phase"]})
            _settle(call.meter)
        usage.socket_minutes += args.visit_minutes
    assert first is not None
    return first


class LiveClient(NamedTuple):
    """How the measured checkout's web client uses its socket (read off its sources, so a
    ``--compare`` plays each checkout's own client, not this one's)."""

    remembers_address: bool  # GET /games/{id}/live once per game (issue 29), else every visit
    view_from_subscribe: bool  # the first view is the subscribe answer, else a GET beside it
    pings: bool  # the keepalive is a ping (no function, no answer), else a re-subscribe
    # the token rides in the subscribe frame and the socket opens with no subprotocol (no
    # $connect, no $disconnect: issue 29), else it is offered as a subprotocol beside "convoy"
    token_in_frame: bool = False


def live_client(root: Path) -> LiveClient:
    web = root / "web" / "src"
    live = (web / "live.ts").read_text() if (web / "live.ts").exists() else ""
    page = web / "components" / "GamePage.tsx"
    return LiveClient("convoy.liveUrl." in live, page.exists() and "FIRST_VIEW_WAIT_MS" in page.read_text(),
                      "socket?.send(PING)" in live, "game_id: gameId, token }" in live)


_root: list[Path] = []  # the measured checkout (main sets it)


def _checkout_root() -> Path:
    return _root[0] if _root else HERE.parent


def keepalives(minutes: float) -> int:
    """Pings in a visit of ``minutes`` (a timer from the socket's opening, every
    KEEPALIVE_MINUTES, stopped by the close: a 10-minute visit sends one)."""
    return max(0, math.ceil(minutes / KEEPALIVE_MINUTES) - 1)


class LiveVisit:
    """One page's socket, in the measured checkout's protocol: open it (with the seat's token as
    a subprotocol and a ``$connect`` invocation, or, ``token_in_frame``, with nothing and no
    invocation), subscribe (the answer is the page's view); every frame received until the
    close is counted (API Gateway bills a message per started 32 KB, both ways). The live
    function's time is our code's, measured as a request's.

    What is counted as a message is what the socket sends and receives: a post the notifier
    makes to a socket already closed (410, how a checkout without ``$disconnect`` finds it gone)
    delivers nothing and is not counted, on the assumption that API Gateway bills messages
    delivered, not refused attempts (its pricing page counts "messages sent and received"). Its
    call is counted (``_meter_posts``) and priced as Lambda time; its ``DeleteItem`` lands in
    the notifier's units."""

    def __init__(self, url: str, token: str, game_id: str, usage: Usage, call: Client,
                 token_in_frame: bool = False) -> None:
        from websockets.sync.client import connect
        from websockets.typing import Subprotocol

        self.usage, self.game_id, self.call = usage, game_id, call
        self.token, self.token_in_frame = token, token_in_frame
        usage.requests["live socket"] += 1  # the upgrade request through CloudFront
        if token_in_frame:  # no $connect route: API Gateway accepts it, nothing runs
            self.socket = connect(url, legacy=True)
        else:
            before, started = call.own.snapshot(), time.perf_counter()
            self.socket = connect(url, subprotocols=[Subprotocol("convoy"), Subprotocol(token)], legacy=True)
            self._spent("live socket", started, before)
            usage.socket_invocations += 1  # $connect
        self.view: dict[str, Any] = self.subscribe()

    def _spent(self, kind: str, started: float, before: Any) -> None:
        spent = self.call.own.snapshot() - before
        self.usage.api_seconds += code_seconds(time.perf_counter() - started, spent)
        self.usage.reads_by[kind] += spent.reads
        self.usage.writes_by[kind] += spent.writes

    def subscribe(self) -> dict[str, Any]:
        """The page's subscribe and its answer, the game's view."""
        before, started = self.call.own.snapshot(), time.perf_counter()
        frame = {"action": "subscribe", "game_id": self.game_id}
        self._sent(json.dumps({**frame, "token": self.token} if self.token_in_frame else frame))
        self.usage.socket_invocations += 1
        while True:
            frame = json.loads(self._received(self.socket.recv(timeout=30)))
            if frame.get("type") == "subscribed":
                break
            self.usage.pushes += 1
        self._spent("live socket", started, before)
        return dict(frame["view"])

    def ping(self) -> None:
        """The keepalive: one message in, no function, nothing back (template.yaml LivePingRoute)."""
        self._sent(json.dumps({"action": "ping"}))

    def _sent(self, text: str) -> None:
        self.socket.send(text)
        self.usage.socket_messages += math.ceil(len(text.encode()) / SOCKET_MESSAGE_BYTES)

    def _received(self, frame: str | bytes) -> str | bytes:
        size = len(frame.encode() if isinstance(frame, str) else frame)
        self.usage.socket_messages += max(1, math.ceil(size / SOCKET_MESSAGE_BYTES))
        self.usage.bytes_out += size
        return frame

    def __enter__(self) -> LiveVisit:
        return self

    def __exit__(self, *_: Any) -> None:
        while True:  # the frames the visit's own actions caused (the pumps have settled)
            try:
                self._received(self.socket.recv(timeout=0.5))
                self.usage.pushes += 1
            except TimeoutError:
                break
        if self.token_in_frame:  # no $disconnect route: the close runs nothing (the next post
            self.socket.close()  # to it meets 410 and the notifier forgets it: relay and notifier)
            return
        before = self.call.own.snapshot()
        self.socket.close()
        # $disconnect runs on the server's side of the close: its units are counted here and its
        # AWS calls billed by their count (bill); its own code time is not measured (a few ms)
        _settle(self.call.meter, quiet=0.5)
        spent = self.call.own.snapshot() - before
        self.usage.reads_by["live socket"] += spent.reads
        self.usage.writes_by["live socket"] += spent.writes
        self.usage.socket_invocations += 1


def _last(call: Client, game_id: str) -> str | None:
    """The last adjudicated phase (not billed: the notice a player follows carries it)."""
    found = call.session.get(f"{call.base}/games/{game_id}/last_resolution", timeout=60).json()
    return str(found["phase"]) if found.get("phase") else None


def _wiring() -> Any:
    """The measured checkout's composition root (functions/wiring.py before issue 30)."""
    return _first_module("composition.wiring", "functions.wiring")


def _first_module(*names: str) -> Any:
    """The first of ``names`` the measured checkout has (its layout changed with issue 30)."""
    for name in names[:-1]:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return importlib.import_module(names[-1])


def _fire(game_id: str, phase: str, deadline: datetime, usage: Usage) -> None:
    """The phase's reminder and deadline schedules fire: the deadline function's own use cases,
    in process, at the reminder's time and just after the deadline."""
    from functions.adapters import StoreDeadlineGames

    wiring = _wiring()
    # before issue 30 the use cases were flat (the baseline, f0fa0cc)
    fire_deadline = _first_module("functions.usecases.turns", "functions.usecases.deadlines").fire_deadline
    send_reminder = _first_module("functions.usecases.turns", "functions.usecases.reminders").send_reminder

    services = wiring.services()
    scheduler = wiring.deadline_scheduler()
    reminded = FixedClock(deadline - timedelta(minutes=30))
    send_reminder(services.store, reminded, game_id, phase, scheduler=scheduler)
    late = deadline + timedelta(seconds=1)
    games = StoreDeadlineGames(services.store, FixedClock(late), scheduler=scheduler)
    outcome = fire_deadline(game_id, phase, now=late, games=games, scheduler=scheduler)
    if str(outcome) not in ("PROCESSED", "FireOutcome.PROCESSED"):
        raise RuntimeError(f"the deadline of {phase} did not process it: {outcome}")
    usage.firings += 2


# --- the bill ------------------------------------------------------------------------------------


def _map_cached(template: Path) -> bool:
    """Whether the template lets CloudFront keep the public map pictures."""
    text = template.read_text()
    return "MapCachePolicy" in text and "/games/*/map*" in text


class Deployment(NamedTuple):
    """What the measured checkout's template.yaml says that the bill depends on."""

    map_cached: bool  # CloudFront may keep the public map pictures
    sampling: tuple[float, float] = LAMBDA_DEFAULT_SAMPLING  # X-Ray: (reservoir per second, rate)
    snapstart_functions: int = 7  # functions whose published version keeps a SnapStart snapshot


def deployment(template: Path) -> Deployment:
    return Deployment(_map_cached(template), LAMBDA_DEFAULT_SAMPLING, snapstart_functions(template))


def snapstart_functions(template: Path) -> int:
    """Functions with SnapStart (the Globals' setting or their own; ``ApplyOn: None`` is off):
    one snapshot each is cached while its version is published (the live alias's)."""
    from local_stack.template import load_template, resources_of

    loaded = load_template(template)
    default = ((loaded.get("Globals") or {}).get("Function") or {}).get("SnapStart")
    functions = resources_of(loaded, "AWS::Serverless::Function").values()
    return sum(1 for f in functions if (f.get("SnapStart", default) or {}).get("ApplyOn", "None") != "None")


def posts(usage: Usage) -> float:
    """The notifier's PostToConnection calls: those metered (``_meter_posts``: delivered, or
    refused with 410 by a closed socket), and at least the frames that reached a socket."""
    return max(usage.pushes, usage.calls["apigatewaymanagementapi:PostToConnection"])


def traces(invocations: float, sampling: tuple[float, float]) -> float:
    """Traces recorded in a month of ``invocations``: the reservoir's each second, then the rate."""
    reservoir, rate = sampling
    kept = min(invocations, reservoir * SECONDS_PER_MONTH)
    return kept + rate * (invocations - kept)


def bill(setup: Usage, phase: Usage, args: argparse.Namespace, deployed: Deployment) -> dict[str, float]:
    """Monthly dollars per line for ``args.games`` games."""
    phases = args.games * SECONDS_PER_MONTH / (3600 * args.phase_hours)
    month = phase.scaled(phases)
    new_games = phases / args.game_phases  # games started (and ended) in a month, steady state
    once = setup.scaled(new_games)
    maps = month.requests["map"]
    from_cache = maps * args.cache_hit if deployed.map_cached else 0.0
    edge_requests = sum(month.requests.values()) + sum(once.requests.values())
    sockets = month.requests["live socket"]  # upgrades: through CloudFront to the WebSocket API
    api_requests = edge_requests - from_cache - sockets
    async_invocations = (month.calls["sqs:SendMessageBatch"] + month.calls["sqs:DeleteMessageBatch"]
                         + once.calls["sqs:SendMessageBatch"] + once.calls["sqs:DeleteMessageBatch"])
    invocations = (api_requests + month.firings + async_invocations + SWEEPS_PER_MONTH
                   + month.socket_invocations)
    code_time = (month.api_seconds + once.api_seconds) * (1 - from_cache / max(edge_requests, 1))
    aws_time = aws_call_seconds(month.calls + once.calls) + posts(month) * POST_SECONDS
    gb_seconds = LAMBDA_GB * (code_time + month.function_seconds + async_invocations * RELAY_SECONDS
                              + aws_time)
    sqs = sum(n for k, n in (month.calls + once.calls).items() if k.startswith("sqs:"))
    traced = traces(invocations, deployed.sampling)
    price = {name: value for name, (value, _) in PRICES.items()}
    return {
        "CloudFront requests": edge_requests * price["cloudfront_request"],
        "CloudFront data out": (month.bytes_out + once.bytes_out) / 1e9 * price["cloudfront_gb"],
        "API Gateway (HTTP API)": api_requests * price["http_api_request"],
        "API Gateway (WebSocket)": (month.socket_messages * price["websocket_message"]
                                    + month.socket_minutes * price["websocket_minute"]),
        "Lambda requests": invocations * price["lambda_request"],
        "Lambda duration": gb_seconds * price["lambda_gb_second"],
        "Lambda SnapStart cache": (deployed.snapstart_functions * LAMBDA_GB * SECONDS_PER_MONTH
                                   * price["snapstart_cache_gb_second"]),
        "DynamoDB writes": (month.write_units + once.write_units) * price["dynamodb_write_unit"],
        "DynamoDB reads": (month.read_units + once.read_units) * price["dynamodb_read_unit"],
        "EventBridge Scheduler": month.firings * price["scheduler_invocation"],
        "SQS": (sqs + SQS_POLLING_PER_MONTH) * price["sqs_request"],
        "X-Ray traces": traced * price["xray_trace"],
        "CloudWatch Logs": invocations * LOG_BYTES_PER_INVOCATION / 1e9 * price["logs_gb"],
    }


def report(setup: Usage, phase: Usage, args: argparse.Namespace, deployed: Deployment) -> dict[str, Any]:
    lines = bill(setup, phase, args, deployed)
    scheduler_calls = {k: v for k, v in phase.calls.items() if k.startswith("scheduler:")}
    return {
        "per_phase": {
            "requests": dict(phase.requests), "bytes_out": phase.bytes_out,
            "read_units_by": {k: round(v, 2) for k, v in phase.reads_by.items()},
            "write_units_by": {k: round(v, 2) for k, v in phase.writes_by.items()},
            "read_units": round(phase.read_units, 1), "write_units": round(phase.write_units, 1),
            "scheduler_calls": scheduler_calls, "firings": phase.firings,
            "sqs_calls": {k: v for k, v in phase.calls.items() if k.startswith("sqs:")},
        },
        "socket": {"messages": round(phase.socket_messages, 1), "minutes": phase.socket_minutes,
                   "invocations": phase.socket_invocations, "pushes": phase.pushes, "posts": posts(phase)},
        "per_game_setup": {"requests": dict(setup.requests), "write_units": round(setup.write_units, 1),
                           "read_units": round(setup.read_units, 1)},
        "map_cached": deployed.map_cached,
        "trace_sampling": list(deployed.sampling),
        "snapstart_functions": deployed.snapstart_functions,
        "lambda_seconds": {"code": round(phase.api_seconds + phase.function_seconds, 3),
                           "aws_calls": round(aws_call_seconds(phase.calls) + posts(phase) * POST_SECONDS,
                                              3)},
        "bill": lines,
        "total": sum(lines.values()),
    }


def print_usage(found: dict[str, Any]) -> None:
    """Per game phase: requests and DynamoDB units by what spent them."""
    per = found["per_phase"]
    kinds = sorted(set(per["read_units_by"]) | set(per["write_units_by"]) | set(per["requests"]))
    print(f"| {'per game phase':<24} | {'requests':>8} | {'read units':>10} | {'write units':>11} |")
    print(f"|{'-' * 26}|{'-' * 10}|{'-' * 12}|{'-' * 13}|")
    for kind in kinds:
        reads, writes = per["read_units_by"].get(kind, 0), per["write_units_by"].get(kind, 0)
        print(f"| {kind:<24} | {per['requests'].get(kind, 0):>8.0f} | {reads:>10.1f} | {writes:>11.1f} |")
    print(f"| {'total':<24} | {sum(per['requests'].values()):>8.0f} | {per['read_units']:>10.1f} "
          f"| {per['write_units']:>11.1f} |")


def print_report(found: dict[str, Any], args: argparse.Namespace, title: str) -> None:
    per = found["per_phase"]
    print(f"{title}: {args.games} games, {args.players} players, a phase every {args.phase_hours} h, "
          f"{args.submissions} order sets, {_client(args)}, {args.messages} messages and "
          f"{args.map_views} map views per phase, map cache hit rate {args.cache_hit:.0%} "
          f"({'allowed' if found['map_cached'] else 'not allowed'} by the template)")
    print(f"  per phase: {sum(per['requests'].values()):.0f} requests, {per['read_units']} read units, "
          f"{per['write_units']} write units, scheduler calls {per['scheduler_calls']}, "
          f"{per['bytes_out'] / 1024:.0f} KB out; socket: {found['socket']}")
    print(f"  Lambda seconds per phase: {found['lambda_seconds']} (our code, measured; AWS calls, "
          f"priced by AWS_CALL_SECONDS); X-Ray sampling (reservoir/s, rate): {found['trace_sampling']}")
    print()
    print_usage(found)
    print()
    print(f"| {'monthly bill (USD, list prices of ' + PRICES_DATE + ')':<46} | {'USD':>9} |")
    print(f"|{'-' * 48}|{'-' * 11}|")
    for line, dollars in found["bill"].items():
        print(f"| {line:<46} | {dollars:>9.2f} |")
    print(f"| {'total':<46} | {found['total']:>9.2f} |")


def _client(args: argparse.Namespace) -> str:
    if args.client == "poll":
        return f"a polling client: {args.polls} polls"
    return (f"the live client: {args.visits} page visits per player of {args.visit_minutes:g} min, "
            f"socket open, a ping every {KEEPALIVE_MINUTES} min, no polls")


def print_comparison(before: dict[str, Any], after: dict[str, Any], args: argparse.Namespace) -> None:
    print(f"Monthly bill for {args.games} games ({args.players} players, a phase every {args.phase_hours} h, "
          f"{args.submissions} order sets and {_client(args)} per phase, map cache hit "
          f"{args.cache_hit:.0%}); list prices of {PRICES_DATE}, Cognito left out")
    print()
    print(f"| {'line':<30} | {'before (USD)':>12} | {'after (USD)':>12} |")
    print(f"|{'-' * 32}|{'-' * 14}|{'-' * 14}|")
    for line in before["bill"]:
        print(f"| {line:<30} | {before['bill'][line]:>12.2f} | {after['bill'][line]:>12.2f} |")
    print(f"| {'total':<30} | {before['total']:>12.2f} | {after['total']:>12.2f} |")
    print(f"| {'after / before':<30} | {'':>12} | {after['total'] / before['total']:>12.2f} |")
    for name, found in (("before", before), ("after", after)):
        per = found["per_phase"]
        print()
        print(f"{name}: scheduler calls per phase {json.dumps(per['scheduler_calls'], sort_keys=True)}, "
              f"{per['bytes_out'] / 1024:.0f} KB out per phase; socket {found.get('socket')}; Lambda "
              f"seconds {found.get('lambda_seconds')}; X-Ray sampling {found.get('trace_sampling')}")
        print()
        print_usage(found)


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=7, choices=range(2, 8))
    parser.add_argument("--phase-hours", type=float, default=24.0)
    parser.add_argument("--submissions", type=int, default=21, help="order sets per phase")
    parser.add_argument("--client", choices=("live", "poll"), default="live",
                        help="live: the web client as it is (a socket, no polling while it is up); "
                             "poll: the issue's client, --polls views per phase")
    parser.add_argument("--polls", type=int, default=140,
                        help="player views (GET /games/{id}) per phase (poll)")
    parser.add_argument("--visits", type=int, default=3, help="page visits per player per phase (live)")
    parser.add_argument("--visit-minutes", type=float, default=10.0,
                        help="a visit's length, socket open (live)")
    parser.add_argument("--messages", type=int, default=7, help="press messages (and inbox reads) per phase")
    parser.add_argument("--map-views", type=int, default=7, help="fetches of the last phase's picture")
    parser.add_argument("--cache-hit", type=float, default=0.8, help="CloudFront hit rate where allowed")
    parser.add_argument("--game-phases", type=int, default=40, help="phases a game lasts (spreads its setup)")
    parser.add_argument("--phases", type=int, default=4, help="phases measured")
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--checkout", type=Path, help="measure this checkout's product and template")
    parser.add_argument("--compare", type=Path, help="measure this checkout and the current one")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    return parser.parse_args(argv)


def _run(checkout: Path | None, argv: list[str]) -> dict[str, Any]:
    """This script in a fresh interpreter (one product per process), its JSON report."""
    extra = ["--checkout", str(checkout)] if checkout else []
    done = subprocess.run([sys.executable, str(HERE / "cost.py"), *argv, *extra, "--json"],
                          capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    if args.compare:
        given = [a for a in (argv or sys.argv[1:]) if a != "--json"]
        given = [a for i, a in enumerate(given)
                 if a != "--compare" and (i == 0 or given[i - 1] != "--compare")]
        print_comparison(_run(args.compare.resolve(), given), _run(None, given), args)
        return
    root = (args.checkout or HERE.parent).resolve()
    _root[:] = [root]
    sys.path.insert(0, str(root))
    setup, phase = measure(args)
    found = report(setup, phase, args, deployment(root / "template.yaml"))
    if args.json:
        print(json.dumps(found, default=float))
    else:
        print_report(found, args, f"Convoy on AWS ({root.name})")


if __name__ == "__main__":
    main()
