"""Issue 15 with the data directory (issue 9): accounts, their codes and their seats survive a
kill -9 of ``make run``; the confirmation code is read from the mailbox file, as a browser
test would read it."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system.client import Api
from tests.system.server_process import ServerProcess

pytestmark = pytest.mark.system
PASSWORD = "Convoy-test-1"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    running = ServerProcess(tmp_path / "data", workers=1).start()
    yield running
    running.kill()


def _mailed_code(server: ServerProcess, email: str) -> str:
    message = json.loads((server.data_dir / "mailbox" / f"{email}.json").read_text())
    assert message["to"] == email
    return str(message["code"])


def test_accounts_and_bound_seats_survive_a_kill(server: ServerProcess) -> None:
    api = Api(server.url)
    # Given a confirmed account holding a seat, and a second account not confirmed yet
    body = {"email": "ada@example.com", "password": PASSWORD, "display_name": "Ada"}
    api.call("POST", "/auth/signup", body=body, expect=201)
    api.call("POST", "/auth/confirm", body={"email": "ada@example.com",
                                            "code": _mailed_code(server, "ada@example.com")})
    before = api.call("POST", "/auth/signin", body={"email": "ada@example.com", "password": PASSWORD})
    game = api.call("POST", "/games", token=before["id_token"], body={"variant": "classical"}, expect=201)
    api.call("POST", f"/games/{game['game_id']}/join", token=before["id_token"], body={"power": "FRANCE"})
    api.call("POST", "/auth/signup", expect=201,
             body={"email": "bob@example.com", "password": PASSWORD, "display_name": "Bob"})
    code = _mailed_code(server, "bob@example.com")
    # When the stack is killed (after the journal's one-second flush) and started again
    time.sleep(1.5)
    server.stop(signal.SIGKILL)
    server.start()
    api = Api(server.url)
    # Then the account signs in on a "new device" and plays its seat with no seat token
    after = api.call("POST", "/auth/signin", body={"email": "ada@example.com", "password": PASSWORD})
    assert after["user"] == before["user"]
    ordered = api.call("POST", f"/games/{game['game_id']}/orders", token=after["id_token"],
                       body={"orders": ["A PAR - BUR"]})
    assert ordered["accepted"] == ["A PAR - BUR"]
    assert api.call("GET", "/me", token=before["id_token"])["display_name"] == "Ada"  # same signing key
    assert [g["power"] for g in api.call("GET", "/me/games", token=after["id_token"])["games"]] == ["FRANCE"]
    # and the code mailed before the kill still confirms the second account (a replay draws the same)
    assert _mailed_code(server, "bob@example.com") == code
    api.call("POST", "/auth/confirm", body={"email": "bob@example.com", "code": code})
    api.call("POST", "/auth/signin", body={"email": "bob@example.com", "password": PASSWORD})
