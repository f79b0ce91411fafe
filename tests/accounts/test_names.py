"""Issue 15 item 3: a display name per account, shown to other players unless the game is
anonymous, and then never, anywhere: views, press, events, export, history, notifications."""

from __future__ import annotations

import json
from typing import Any

import pytest

from testkit.api_harness import POWERS, InProcessApi
from testkit.fakes import InMemoryPressStore

NAMES = {"FRANCE": "Zanzibar Quill", "GERMANY": "Ottoline Vex"}


def _game(api: InProcessApi, anonymous: bool) -> tuple[str, str, dict[str, str]]:
    """A full game; FRANCE and GERMANY taken by named accounts. (game id, creator, bearer per power)."""
    creator_sub, creator_jwt = api.pool.user("Creator Person")
    created = api.call("POST", "/games", {"variant": "classical", "anonymous": anonymous}, token=creator_jwt)
    game_id, tokens = created.body["game_id"], {}
    for power in POWERS:
        jwt = api.pool.user(NAMES[power])[1] if power in NAMES else None
        joined = api.call("POST", f"/games/{game_id}/join", {"power": power}, token=jwt)
        assert joined.status == 200, joined.raw
        tokens[power] = jwt or joined.body["token"]
    return game_id, creator_jwt, tokens


def _everything(api: InProcessApi, game_id: str, tokens: dict[str, str]) -> str:
    """Every answer and stored notice a player, an observer or a webhook could see of the game."""
    seen: list[Any] = []
    for token in (None, tokens["FRANCE"], tokens["ENGLAND"]):
        for path in ("", "/events?after=0", "/history", "/export", "/messages", "/channels", "/orders_status",
                     "/last_resolution"):
            seen.append(api.call("GET", f"/games/{game_id}{path}", token=token).raw)
    seen.append(api.call("GET", "/games").raw)
    seen.append([o._asdict() for o in api.store.outbox.get(game_id, [])])
    seen.append([e._asdict() for e in api.store.events.get(game_id, [])])
    from composition import wiring

    press = wiring.services().press_store
    assert isinstance(press, InMemoryPressStore)  # what in_process_api wires
    seen.append([n._asdict() for n in press.notices])
    return json.dumps(seen, default=str)


def _play_a_little(api: InProcessApi, game_id: str, creator: str, tokens: dict[str, str]) -> None:
    sent = api.call("POST", f"/games/{game_id}/messages", {"to": "ALL", "text": "hello all"},
                    token=tokens["FRANCE"])
    assert sent.status == 201, sent.raw
    api.call("POST", f"/games/{game_id}/messages", {"to": ["GERMANY"], "text": "psst"},
             token=tokens["FRANCE"])
    api.call("POST", f"/games/{game_id}/orders", {"orders": ["A PAR - BUR"]}, token=tokens["FRANCE"])
    for power in POWERS:
        api.call("POST", f"/games/{game_id}/orders", {"orders": []}, token=tokens[power])
    done = api.call("POST", f"/games/{game_id}/process_turn", {"phase": "S1901M"}, token=creator)
    assert done.status == 200, done.raw


def test_names_are_shown_to_other_players_in_a_normal_game(api: InProcessApi) -> None:
    game_id, creator, tokens = _game(api, anonymous=False)
    view = api.call("GET", f"/games/{game_id}", token=tokens["ENGLAND"]).body
    assert view["players"]["FRANCE"]["display_name"] == "Zanzibar Quill"
    assert view["players"]["GERMANY"]["display_name"] == "Ottoline Vex"
    assert view["players"]["ENGLAND"]["display_name"] is None  # joined by seat token, no account


@pytest.mark.parametrize("anonymous", [True])
def test_an_anonymous_game_never_shows_a_name_or_an_account(api: InProcessApi, anonymous: bool) -> None:
    # Given an anonymous game with two named accounts seated, a little press and one phase played
    game_id, creator, tokens = _game(api, anonymous=anonymous)
    _play_a_little(api, game_id, creator, tokens)
    # Then no view, press, event, export, history, listing or notification names them
    everything = _everything(api, game_id, tokens)
    secrets_of_identity = [*NAMES.values(), "Creator Person",
                           *(api.pool.users[f"{n.lower()}@example.com"]["sub"] for n in NAMES.values())]
    for secret in secrets_of_identity:
        assert secret not in everything, secret
    # while the accounts still play their seats and list their games
    mine = api.call("GET", "/me/games", token=tokens["FRANCE"]).body["games"]
    assert [(g["game_id"], g["power"]) for g in mine] == [(game_id, "FRANCE")]
