"""Issue 28, "Deadlines": every deadline of a game fires by its own schedule, on time, in the
deployment shape of ``make run`` (the API in worker processes, the deadline function in the
main process) with the backstop sweeper switched off.

On the old main the first deadline was never scheduled (the API workers were started without
the deadline settings, so the join that filled the game scheduled nothing) and Spring 1901
waited ~30 s for the sweeper. Here each phase's PHASE_PROCESSED event must come within
``LATE`` seconds after the deadline the game showed, and never before it: the first deadline,
a later one, one after a pause and resume, one after an extension.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.system.client import Api
from tests.system.server_process import ServerProcess

pytestmark = pytest.mark.system

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
LATE = 2.0  # seconds a deadline may fire after its time (at() has whole seconds, the pump polls)
PHASE = 3  # seconds per phase


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ServerProcess]:
    monkeypatch.setenv("CONVOY_SWEEP_SECONDS", "0")  # no backstop: only the schedules may fire
    running = ServerProcess(tmp_path / "data", workers=2).start()
    yield running
    running.kill()


def _at(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def _processed(api: Api, game_id: str, phase: str, timeout: float) -> dict[str, Any]:
    """The PHASE_PROCESSED event of ``phase``, waited for."""
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        events = api.call("GET", f"/games/{game_id}/events?after=0&limit=500")["events"]
        found = [e for e in events if e["type"] == "PHASE_PROCESSED" and e["phase"] == phase]
        if found:
            return dict(found[0])
        time.sleep(0.1)
    raise AssertionError(f"{phase} was not processed within {timeout} s")


def _fires_on_time(api: Api, game_id: str, phase: str, deadline: str) -> None:
    processed = _processed(api, game_id, phase, PHASE + 10 * LATE)
    late = _at(processed["at"]) - _at(deadline)
    assert 0 <= late <= LATE, f"{phase}: processed {late:+.2f} s after its deadline {deadline}"


def test_every_deadline_of_a_game_fires_by_its_schedule(server: ServerProcess) -> None:
    api = Api(server.url)
    seconds = {"MOVEMENT": PHASE, "RETREAT": PHASE, "ADJUSTMENT": PHASE}
    # nobody is seated out for missing orders: the game runs on its deadlines alone
    body = {"phase_seconds": seconds, "reminder_seconds": 0, "civil_disorder_after": 0}
    created = api.call("POST", "/games", expect=201, body=body)
    game_id, creator = created["game_id"], created["token"]
    for power in POWERS:  # nobody orders: every phase ends at its deadline
        api.call("POST", f"/games/{game_id}/join", body={"power": power})
    # the first deadline: scheduled by the join that filled the game, in an API worker
    first = api.call("GET", f"/games/{game_id}")
    assert first["phase"] == "S1901M" and first["deadline"]
    _fires_on_time(api, game_id, "S1901M", first["deadline"])
    # a later one: scheduled by the deadline function's own processing
    later = api.call("GET", f"/games/{game_id}")
    assert later["phase"] == "F1901M" and later["deadline"]
    _fires_on_time(api, game_id, "F1901M", later["deadline"])
    # after a pause and a resume: the time left runs from the resume
    spring = api.call("GET", f"/games/{game_id}")
    assert spring["phase"] == "S1902M"
    api.call("POST", f"/games/{game_id}/pause", token=creator)
    time.sleep(PHASE)  # past the deadline the phase had: a paused game does not move
    assert api.call("GET", f"/games/{game_id}")["phase"] == "S1902M"
    resumed = api.call("POST", f"/games/{game_id}/resume", token=creator)
    _fires_on_time(api, game_id, "S1902M", resumed["deadline"])
    # after an extension: the schedule moves with the deadline, not fired at the old time
    fall = api.call("GET", f"/games/{game_id}")
    assert fall["phase"] == "F1902M"
    extended = api.call("POST", f"/games/{game_id}/extend", token=creator, body={"seconds": PHASE})
    assert _at(extended["deadline"]) >= _at(fall["deadline"]) + PHASE - 0.01
    _fires_on_time(api, game_id, "F1902M", extended["deadline"])
