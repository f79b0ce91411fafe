"""DAIDE transcripts replayed against the bridge and the local stack (issue 31, item 6):
every SUB of the transcript answered as the transcript answers it, the game going the same
way (each turn's units as the transcript's NOW shows them).

- Transcripts written for Convoy from "DAIDE Message Syntax" (tests/daide/data/*.csv, in
  MILA's format): every reply exactly as written (THX notes, REJ, HUH with ERR in place).
- MILA's own (``diplomacy/daide/tests/*.csv`` in the ``diplomacy`` 1.1.2 package, the
  ``bench`` extra): read from the installed package, never copied into this repository
  (MILA's diplomacy is AGPL-3.0; Convoy does not take its files), and skipped with the
  reason when the package is absent. Every order MILA accepted (MBV) the bridge accepts,
  every order MILA refused the bridge refuses; where the refusal's note differs the test
  says which (MILA answers NYU for most refusals)."""

from __future__ import annotations

import asyncio
import importlib.util
import threading
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from daide_bridge.messages import Message, format_message
from daide_bridge.rest import Convoy
from daide_bridge.server import Bridge
from local_stack.stack import LocalStack
from tests.daide import transcripts
from tests.system.client import Api
from tests.system.conftest import OPERATOR_TOKEN

pytestmark = pytest.mark.system
AUTHORED = sorted((Path(__file__).parents[1] / "daide" / "data").glob("*.csv"))
HAVE_MILA = importlib.util.find_spec("diplomacy") is not None
MILA_DIR = resources.files("diplomacy") / "daide" / "tests" if HAVE_MILA else None
MILA = sorted(p.name for p in MILA_DIR.iterdir() if p.name.endswith(".csv")) if MILA_DIR else ["(all)"]
NO_MILA = "MILA's diplomacy 1.1.2 (the bench extra: pip install -e '.[bench]') is not installed"


class RunningBridge:
    """The bridge on its own event loop thread; the replay's bots all come from loopback."""

    def __init__(self, url: str, game_id: str) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="daide-bridge", daemon=True)
        self.thread.start()
        self.bridge = Bridge(Convoy(url), [game_id], poll_seconds=0.1, seats_per_host=7)
        self.port = asyncio.run_coroutine_threadsafe(self.bridge.start("127.0.0.1", 0), self.loop).result(30)

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self.bridge.stop(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
        self.loop.close()


def _table(stack: LocalStack, rules: str) -> Iterator[transcripts.Table]:
    api = Api(stack.url)
    game_id = api.call("POST", "/games", body={"variant": "classical", "rules": rules}, expect=201)["game_id"]
    running = RunningBridge(stack.url, game_id)
    table = transcripts.Table(api, OPERATOR_TOKEN, game_id, running.port)
    try:
        yield table
    finally:
        for bot in table.bots.values():
            bot.close()
        running.stop()


def _check_replayed(done: transcripts.Replayed, transcript: transcripts.Transcript) -> None:
    """Every request was answered and every turn's position is the transcript's."""
    assert [e for e, _ in done.answers] == transcript.exchanges
    assert set(done.positions) == set(transcript.positions)
    for when, units in transcript.positions.items():
        assert done.positions[when] == units, (when, units ^ done.positions[when])


@pytest.mark.parametrize("path", AUTHORED, ids=[p.stem for p in AUTHORED])
def test_authored_transcripts_replay_exactly(stack: LocalStack, path: Path) -> None:
    transcript = transcripts.read(path.stem, path.read_text())
    for table in _table(stack, "2023"):
        done = transcripts.replay(table, transcript)
        _check_replayed(done, transcript)
        for exchange, got in done.answers:
            assert [format_message(m) for m in got] == [format_message(m) for m in exchange.replies]


def _note(reply: Message) -> str:
    return str(reply[2][0]) if reply[0] == "THX" and isinstance(reply[2], tuple) else str(reply[0])


@pytest.mark.skipif(not HAVE_MILA, reason=NO_MILA)
@pytest.mark.parametrize("name", MILA)
def test_milas_transcripts_replay_with_every_sub_answered_as_milas(stack: LocalStack, name: str) -> None:
    assert MILA_DIR is not None
    text = (MILA_DIR / name).read_text()
    transcript = transcripts.read(name, text)
    if not transcript.exchanges:
        pytest.skip(f"{name} has no SUB: its bot rejects the map and leaves (REJ (MAP) -> OFF)")
    for table in _table(stack, "2000"):  # MILA adjudicates by the 2000 rulebook (DATC v2.4)
        done = transcripts.replay(table, transcript)
        _check_replayed(done, transcript)
        notes = done.notes()
        assert len(notes) == sum(len(e.replies) for e in transcript.exchanges)
        differing = [
            (format_message(exchange.request), [format_message(m) for m in got])
            for exchange, got in done.answers
            if transcript.accepted(exchange) != [_note(m) == "MBV" for m in got]
        ]
        assert not differing
        print(f"{name}: {len(transcript.exchanges)} SUB, {len(notes)} orders, "
              f"{sum(t == 'MBV' for t, _ in notes)} MBV; refusals (MILA, bridge): "
              f"{[n for n in notes if n[0] != 'MBV']}; phases processed {len(done.processed)}, "
              f"skipped {done.skipped}")
