"""Per-target webhook secrets and their rotation through the API (issue 11, item 5)."""

from __future__ import annotations

from functions.ports.notifications import WebhookTarget, target_from_dict
from testkit.api_harness import InProcessApi

HOOKS = [{"type": "webhook", "url": "https://a.example.com/h"}, {"type": "telegram", "chat_id": -1001},
         {"type": "webhook", "url": "https://b.example.com/h"}]


def test_each_webhook_target_has_its_own_secret_shown_once(api: InProcessApi) -> None:
    created = api.call("POST", "/games", {"notify": HOOKS}).body
    secrets = {entry["target"]: entry["secret"] for entry in created["webhook_secrets"]}
    assert sorted(secrets) == [0, 2] and secrets[0] != secrets[2]
    assert created["webhook_secret"] == secrets[0]  # the old field: the first webhook's
    stored = api.store.load(created["game_id"]).settings["notify"]
    assert [t.get("secret") for t in stored] == [secrets[0], None, secrets[2]]


def test_the_creator_rotates_one_target_and_the_old_secret_signs_for_a_window(api: InProcessApi) -> None:
    # Given a game with two webhooks, and the API remembering Idempotency-Keys
    from composition import wiring
    from tests.functions.test_idempotency import MemoryIdempotencyStore

    wiring.services().idempotency = MemoryIdempotencyStore()
    created = api.call("POST", "/games", {"notify": HOOKS}).body
    game_id, creator = created["game_id"], created["token"]
    before = {entry["target"]: entry["secret"] for entry in created["webhook_secrets"]}

    # When its creator rotates the second one
    answer = api.call("POST", f"/games/{game_id}/notify/2/rotate_secret", token=creator,
                      headers={"idempotency-key": "rotate-1"})

    # Then it has a new secret, the old one still signs until the window ends, the other is untouched
    assert answer.status == 200, answer.raw
    assert answer.body["target"] == 2 and answer.body["secret"] not in before.values()
    targets = [target_from_dict(t) for t in api.store.load(game_id).settings["notify"]]
    rotated, untouched = targets[2], targets[0]
    assert isinstance(rotated, WebhookTarget) and isinstance(untouched, WebhookTarget)
    assert rotated.secret == answer.body["secret"]
    assert rotated.previous_secret == before[2]
    assert untouched.secret == before[0] and untouched.previous_secret is None
    # And a retry with the same key never shows the new secret again
    again = api.call("POST", f"/games/{game_id}/notify/2/rotate_secret", token=creator,
                     headers={"idempotency-key": "rotate-1"})
    assert again.status == 409 and again.body["code"] == "IDEMPOTENT_REPLAY_SECRET"
    assert answer.body["secret"] not in again.raw


def test_rotation_is_for_the_controllers_and_webhook_targets_only(api: InProcessApi) -> None:
    created = api.call("POST", "/games", {"notify": HOOKS}).body
    game_id, creator = created["game_id"], created["token"]
    seat = api.call("POST", f"/games/{game_id}/join", {"power": "FRANCE"}).body["token"]
    assert api.call("POST", f"/games/{game_id}/notify/0/rotate_secret").status == 401
    assert api.call("POST", f"/games/{game_id}/notify/0/rotate_secret", token=seat).status == 403
    for index in ("1", "3", "x", "-1"):  # a telegram target, past the end, not a number
        refused = api.call("POST", f"/games/{game_id}/notify/{index}/rotate_secret", token=creator)
        assert (refused.status, refused.body["code"]) == (404, "NOTIFY_TARGET_NOT_FOUND"), index
