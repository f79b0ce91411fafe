"""DAIDE and fog of war (issue 35 items 3 and 4; docs/variants.md "Fog of war"): DAIDE has no fog,
and the bridge tells every seat of a game one board (NOW, SCO and ORD from the public view and
history, which an observer of a fog game never sees), so it offers no seat of a fog game."""

from __future__ import annotations

from daide_bridge.grammar import CONVOY_POWERS
from tests.daide.bot import DaideBot
from tests.daide.fakes import FakeConvoy, RunningBridge


def _nme(convoy: FakeConvoy) -> str:
    running = RunningBridge(convoy)
    bot = DaideBot("127.0.0.1", running.port, timeout=10)
    try:
        bot.hello()
        return str(bot.answer("NME ('bot') ('1')")[0])
    finally:
        bot.close()
        running.stop()


def test_a_fog_game_s_free_seat_is_not_offered_over_daide() -> None:
    fog = FakeConvoy(fog=True)
    fog.players.update({p: f"rest-token-{p}" for p in CONVOY_POWERS if p != "FRANCE"})
    assert _nme(fog) == "REJ"
    assert ("join", "G") not in fog.calls
    # the same game without fog seats the bot
    plain = FakeConvoy()
    plain.players.update({p: f"rest-token-{p}" for p in CONVOY_POWERS if p != "FRANCE"})
    assert _nme(plain) == "YES"
