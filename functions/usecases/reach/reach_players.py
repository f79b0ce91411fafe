"""The notifier's second step for each outbox message (issue 33): reach the players themselves.

After the game's own targets (webhooks, Discord, Telegram: functions/usecases/notifications/notifications.py),
each message is, in this order:

1. posted live to the game's WebSocket connections, each frame redacted for its connection
   (functions/usecases/reach/live_updates.py);
2. turned into personal notices (personal_notices.py; press opens batches instead:
   press_batches.py) and, per account and channel, sent now (mail through SES, push to every
   device), kept for the daily digest (digests.py) or dropped, as the account chose
   (notice_preferences.py).

Delivered once: each send is recorded in the delivery log as (message's dedupe key, target)
with targets ``mail:<user>``, ``push:<user>:<device>`` and ``digest:<channel>:<user>``, so a
redelivered message (SQS at-least-once, a retry after a partial failure) sends nothing twice.
A failed send is reported (``failed``): the notifier reports the message for retry and, after
the queue's maxReceiveCount, it lands in the dead-letter queue like any notice. Permanent
refusals are not failures: an address SES will never take (``MailRefused``) and a device the
push service calls gone (dropped) are logged and skipped. With a ``budget``, nothing starts
once the batch's time is up: the rest is ``deferred`` and the message goes back to the queue.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from functions.errors import GameNotFound
from functions.ports import GameRecord, GameStore, PressStore
from functions.ports.notifications import OutboxMessage
from functions.ports.notifier import DeliveryLog, MessageQueue
from functions.ports.reach import (
    ConnectionStore,
    ContactDirectory,
    DelayedQueue,
    LivePoster,
    MailRefused,
    MailSender,
    PushGone,
    PushSender,
    ReachStore,
)
from functions.usecases.game import load
from functions.usecases.notifications import DAILY, KIND_OF_OUTBOX, Budget, mode_of
from functions.usecases.reach import digests, live_updates, press_batches
from functions.usecases.reach.mail_notices import mail_for
from functions.usecases.reach.personal_notices import Notice, notices_for
from functions.usecases.reach.push_subscriptions import PUSH_TTL_SECONDS, payload_for

_log = logging.getLogger(__name__)


class Reach(NamedTuple):
    """The ports this step uses; a ``None`` port turns its channel off (no mail identity
    configured, no push key, no WebSocket API)."""

    store: GameStore
    press: PressStore
    prefs: ReachStore
    log: DeliveryLog
    connections: ConnectionStore | None = None
    poster: LivePoster | None = None
    mail: MailSender | None = None
    contacts: ContactDirectory | None = None
    push: PushSender | None = None
    queue: MessageQueue | None = None  # digests: DIGEST messages for each user of a day
    delayed: DelayedQueue | None = None  # press batches: a PRESS_BATCH message later
    public_url: str = ""
    link_key: str = ""  # signs the unsubscribe links
    operator_token: str | None = None
    press_delay: int = press_batches.DEFAULT_DELAY_SECONDS
    # (game id, phase, power) -> the resolution map as that power sees it (a fog game hides the rest)
    map_png: Callable[[str, str, str], bytes | None] | None = None


@dataclass
class Reached:
    """What reaching the players did, for logs, tests and the notifier's batch answer."""

    live: live_updates.Posted = live_updates.Posted()
    sent: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    deferred: list[str] = field(default_factory=list)


def reach_players(message: OutboxMessage, reach: Reach, *, now: float | None = None,
                  budget: Budget | None = None) -> Reached:
    """Live frames, then the personal notices of ``message`` (module docstring)."""
    now = time.time() if now is None else now
    done = Reached()
    if reach.connections is not None and reach.poster is not None:
        done.live = live_updates.publish(message, store=reach.store, press=reach.press,
                                         connections=reach.connections, poster=reach.poster, now=now,
                                         operator_token=reach.operator_token)
    _STEPS.get(message.kind, _game_notices)(message, reach, done, now, budget)
    return done


def _game_notices(message: OutboxMessage, reach: Reach, done: Reached, now: float,
                  budget: Budget | None) -> None:
    """A game's own notice: reminders, turn results, game over (personal_notices.py)."""
    game = _game(message, reach)
    if game is not None:
        for notice in notices_for(message, game, reach.public_url):
            _deliver(notice, reach, done, now, budget)


def _game(message: OutboxMessage, reach: Reach) -> GameRecord | None:
    if message.kind not in KIND_OF_OUTBOX or not message.game_id or message.target is not None:
        return None
    try:
        return load(reach.store, message.game_id)
    except GameNotFound:
        return None


def _open_press_batches(message: OutboxMessage, reach: Reach, done: Reached, now: float,
                        budget: Budget | None) -> None:
    """Press: a batch for each recipient who is away (press_batches.py), nothing sent yet."""
    game = _game(message, reach)
    if game is not None and reach.delayed is not None:
        press_batches.open_batches(message, game, press=reach.press, store=reach.prefs, queue=reach.delayed,
                                   connections=reach.connections, now=now, delay=reach.press_delay,
                                   operator_token=reach.operator_token)


def _flush_press_batch(message: OutboxMessage, reach: Reach, done: Reached, now: float,
                       budget: Budget | None) -> None:
    """A batch's time is up: one notice of the unread press, then the batch closes."""
    game = _game(message, reach)
    if game is None:
        return
    user_id = str(message.payload.get("user_id", ""))
    batch = reach.prefs.press_batch(user_id, game.game_id)
    notice = press_batches.batch_notice(message, game, press=reach.press, batch=batch,
                                        public_url=reach.public_url)
    if notice is not None:
        _deliver(notice, reach, done, now, budget)
    if batch is not None and not done.failed and not done.deferred:
        reach.prefs.close_press_batch(user_id, game.game_id)


def _queue_digests(message: OutboxMessage, reach: Reach, done: Reached, now: float,
                   budget: Budget | None) -> None:
    """The daily schedule's message: one DIGEST per waiting account (digests.py)."""
    if reach.queue is not None:
        digests.queue_due(reach.prefs, reach.queue, now)


def _deliver(notice: Notice, reach: Reach, done: Reached, now: float, budget: Budget | None) -> None:
    """One notice on both channels, each as its account chose."""
    for channel in ("mail", "push"):
        mode = mode_of(reach.prefs, notice.user_id, channel, notice.kind)
        if mode == "immediate":
            (_mail if channel == "mail" else _push)(notice, reach, done, budget)
        elif mode == DAILY:
            target = f"digest:{channel}:{notice.user_id}"
            if _once(notice.dedupe_key, target, reach, done, budget):
                digests.remember(reach.prefs, notice, channel, now)
                _mark(notice.dedupe_key, target, reach, done)


def _once(dedupe_key: str, target: str, reach: Reach, done: Reached, budget: Budget | None) -> bool:
    """Whether to send to ``target`` now: not if it already has it, nor when time is up."""
    if reach.log.was_delivered(dedupe_key, target):
        done.skipped.append(target)
        return False
    if budget is not None and not budget.can_start():
        done.deferred.append(target)
        return False
    return True


def _mark(dedupe_key: str, target: str, reach: Reach, done: Reached) -> None:
    reach.log.mark_delivered(dedupe_key, target)
    done.sent.append(target)


def _mail(notice: Notice, reach: Reach, done: Reached, budget: Budget | None) -> None:
    target = f"mail:{notice.user_id}"
    if reach.mail is None or reach.contacts is None:
        return
    if not _once(notice.dedupe_key, target, reach, done, budget):
        return
    try:
        address = reach.contacts.email_of(notice.user_id)
        if address is None:
            done.skipped.append(target)  # no verified address: nothing to send, ever
            return
        picture = _map(notice, reach)
        reach.mail.send(mail_for(notice, address, public_url=reach.public_url, link_key=reach.link_key,
                                 map_png=picture))
    except MailRefused as refused:
        _log.warning("mail refused for good", extra={"target": target, "reason": str(refused)[:200]})
    except Exception as exc:
        done.failed[target] = type(exc).__name__
        return
    _mark(notice.dedupe_key, target, reach, done)


def _map(notice: Notice, reach: Reach) -> bytes | None:
    if notice.map_phase is None or reach.map_png is None:
        return None
    try:
        return reach.map_png(notice.game_id, notice.map_phase, notice.power)
    except Exception:  # noqa: BLE001 - the mail goes without the picture (its link still works)
        _log.warning("resolution map not drawn for a mail", exc_info=True)
        return None


def _push(notice: Notice, reach: Reach, done: Reached, budget: Budget | None) -> None:
    if reach.push is None:
        return
    payload = payload_for(notice)
    for device in reach.prefs.devices(notice.user_id):
        target = f"push:{notice.user_id}:{device.device_id}"
        if not _once(notice.dedupe_key, target, reach, done, budget):
            continue
        timeout = 5.0 if budget is None else max(0.5, min(budget.per_delivery, budget.left()))
        try:
            reach.push.send(device, payload, ttl=PUSH_TTL_SECONDS, timeout=timeout)
        except PushGone:
            reach.prefs.remove_device(notice.user_id, device.device_id)
            done.skipped.append(target)
            continue
        except Exception as exc:
            done.failed[target] = type(exc).__name__
            continue
        _mark(notice.dedupe_key, target, reach, done)


def _send_digest(message: OutboxMessage, reach: Reach, done: Reached, now: float,
                 budget: Budget | None) -> None:
    user_id, day = str(message.payload.get("user_id", "")), str(message.payload.get("day", ""))
    if not user_id or not day:
        return
    notices = digests.digest_notices(reach.prefs, user_id, day, message.dedupe_key, reach.public_url)
    if "mail" in notices:
        _mail(notices["mail"], reach, done, budget)
    if "push" in notices:
        _push(notices["push"], reach, done, budget)
    if not done.failed and not done.deferred:
        reach.prefs.drop_digest(user_id, day)


Step = Callable[[OutboxMessage, Reach, Reached, float, "Budget | None"], None]
_STEPS: dict[str, Step] = {
    "MESSAGE": _open_press_batches,
    press_batches.PRESS_BATCH: _flush_press_batch,
    digests.DIGEST_DUE: _queue_digests,
    digests.DIGEST: _send_digest,
}
