"""Create a game: pick variant and rulebook, store the initial state, hand out the creator token.

The creator token authorises ``process_turn`` (and nothing a player does); the
creator is not seated until they join like anyone else. Delivery targets
(``notify``) are validated here; each generic webhook gets its own signing secret,
returned once. No deadline runs before the last power is seated (see join).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

import engine
from functions.errors import UnknownVariant, ValidationFailed
from functions.ports import Clock, GameRecord, GameStore
from functions.usecases.game import (
    PHASE_TYPES,
    LifecycleSettings,
    add_event,
    deadline_for,
    game_map,
    iso,
    settings_for,
)
from functions.usecases.notifications import validate_targets
from functions.usecases.players import hash_password, hash_token, new_token
from functions.usecases.press import validate_mode


@dataclass(frozen=True)
class CreateGame:
    """Everything a new game is created with (the request, parsed)."""

    variant: str = "classical"
    rules: str = "2023"
    phase_seconds: dict[str, int] = field(default_factory=dict)
    private: bool = False
    join_password: str | None = None
    auto_process: bool = False
    reminder_seconds: int | None = None  # DEADLINE_APPROACHING lead; None: the default (deadlines.py)
    notify: tuple[dict[str, object], ...] = ()  # delivery targets (notifications/notify_targets.py)
    allow_loopback_webhooks: bool = False  # local runs and tests only
    press: str = "full"  # full | public_only | none | rulebook (functions/usecases/press/press_rules.py)
    anonymous: bool = False  # nothing ties a power to a seat's identity
    fog: bool = False  # fog of war (functions/usecases/players/fog_of_war.py)
    game: str = "diplomacy"  # the game kind (functions/usecases/games/game_kinds.py)
    seed: int | None = None  # backgammon: seeds the dice so the game replays
    move_by_turn_rolls: bool = False  # backgammon: the opening roll is the first move
    lifecycle: LifecycleSettings = LifecycleSettings()  # votes, NMR, dummies, demo, deadline_at
    creator_user_id: str | None = None  # a signed-in creator (issue 15): the rights follow the account
    name: str | None = None  # shown in lists (/me/games); default "<variant> <game id>"
    # issue 34: scoring system, minimum reliability / rating (players/community_settings.py)
    community: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class Created:
    """What the creator is told once: the game and the tokens and secrets minted for it."""

    game_id: str
    token: str
    webhook_secret: str | None = None  # the first webhook target's secret (kept for old clients)
    webhook_secrets: tuple[tuple[int, str], ...] = ()  # (index in notify, secret) per webhook; shown once
    power: str | None = None  # a demo game seats its creator at once: the power ...
    player_token: str | None = None  # ... and its player token (shown once)


def _check(request: CreateGame) -> None:
    """The request's own refusals (rulebook, private password, phase lengths)."""
    try:
        engine.get_rulebook(request.rules)
    except KeyError as exc:
        raise UnknownVariant(f"unknown rulebook {request.rules!r}") from exc
    if request.private and not request.join_password:
        raise ValidationFailed("a private game needs a join_password")
    unknown = sorted(set(request.phase_seconds) - set(PHASE_TYPES))
    if unknown:
        raise ValidationFailed(f"phase_seconds keys must be among {', '.join(PHASE_TYPES)}")
    if any(int(v) <= 0 for v in request.phase_seconds.values()):
        raise ValidationFailed("phase_seconds values must be positive")


def _settings(request: CreateGame, notify: list[dict[str, Any]],
              the_map: engine.MapData) -> tuple[dict[str, object], str | None]:
    """The new game's settings, and the demo game's seated power (None in any other game)."""
    settings: dict[str, object] = {
        "phase_seconds": {k: int(v) for k, v in sorted(request.phase_seconds.items())},
        "private": request.private,
        "auto_process": request.auto_process,
        "press": validate_mode(request.press),
        "anonymous": request.anonymous,
    }
    if request.fog:
        settings["fog"] = True
    if request.name:
        settings["name"] = request.name
    if request.reminder_seconds is not None:
        if int(request.reminder_seconds) < 0:
            raise ValidationFailed("reminder_seconds must not be negative")
        settings["reminder_seconds"] = int(request.reminder_seconds)
    if notify:
        settings["notify"] = notify
    if request.private and request.join_password:
        settings["join_password"] = hash_password(request.join_password)
    more, demo_power = settings_for(request.lifecycle, the_map)
    settings.update(more)
    settings.update(request.community)
    return settings, demo_power


def create_game(store: GameStore, clock: Clock, request: CreateGame) -> Created:
    the_map = game_map(request.variant)
    _check(request)
    notify, webhook_secrets = validate_targets(request.notify, allow_loopback=request.allow_loopback_webhooks)
    settings, demo_power = _settings(request, notify, the_map)
    now = clock.now()
    token = new_token()
    state = engine.initial_state(the_map)
    game = GameRecord(
        game_id=secrets.token_hex(6),
        variant=request.variant,
        rules=request.rules,
        created_at=iso(now),
        creator_token_hash=hash_token(token),
        state=engine.state_to_dict(state),
        phase=state.phase_name,
        phase_started_at=iso(now),
        settings=settings,
        creator_user_id=request.creator_user_id,
    )
    event = add_event(
        game,
        "GAME_CREATED",
        {"variant": request.variant, "rules": request.rules, "private": request.private},
        now,
    )
    player_token = new_token() if demo_power else None
    if demo_power and player_token:
        game.players[demo_power] = {"token_hash": hash_token(player_token), "joined_at": iso(now)}
        game.started_at = iso(now)
        game.deadline = deadline_for(game, str(state.phase_type), now)
    store.create(game, [event])
    indexed = tuple((i, str(t["secret"])) for i, t in enumerate(notify) if "secret" in t)
    first = webhook_secrets[0] if webhook_secrets else None
    return Created(game_id=game.game_id, token=token, webhook_secret=first, webhook_secrets=indexed,
                   power=demo_power, player_token=player_token)
