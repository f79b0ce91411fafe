"""The daily digest (issue 33): notices a player chose to get "daily" are kept as lines of that
day's digest and sent as one mail (and one push) the next morning.

- A notice whose mode is ``digest`` adds one line to ``USER#<sub>`` / ``DIGEST#<day>`` and
  lists the user in that day's index (``DIGESTDAY#<day>``), the day being the UTC date.
- Once a day a schedule (template.yaml ``DigestSchedule``: EventBridge Scheduler sending one
  ``DIGEST_DUE`` message straight to the outbox queue) makes the notifier queue one ``DIGEST``
  message per user listed for the days before today (up to a week back, so a missed morning
  is caught up), and take them off the index. A day with more users than one pass takes
  queues another ``DIGEST_DUE`` at once.
- ``DIGEST`` sends the user's lines as one mail (and one push), delivered once per
  (user, day) by the delivery log, then forgets them.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from functions.ports.notifications import OutboxMessage
from functions.ports.notifier import MessageQueue
from functions.ports.reach import ReachStore
from functions.usecases.reach.personal_notices import Notice

DIGEST_DUE = "DIGEST_DUE"
DIGEST = "DIGEST"
LOOKBACK_DAYS = 7
USERS_PER_PASS = 500


def day_of(now: float) -> str:
    return datetime.fromtimestamp(now, UTC).date().isoformat()


def remember(store: ReachStore, notice: Notice, channel: str, now: float) -> None:
    """One line of today's digest for the notice's account."""
    store.add_digest_line(notice.user_id, day_of(now), channel, f"{notice.subject}: {notice.lines[0]}")


def queue_due(store: ReachStore, queue: MessageQueue, now: float) -> int:
    """``DIGEST_DUE``: one ``DIGEST`` message per user listed for the days before today."""
    today = date.fromisoformat(day_of(now))
    queued, more = 0, False
    for back in range(LOOKBACK_DAYS, 0, -1):
        day = (today - timedelta(days=back)).isoformat()
        users = store.digest_users(day, USERS_PER_PASS)
        messages = [OutboxMessage(f"digest:{user}:{day}", DIGEST, None, {"user_id": user, "day": day})
                    for user in users]
        failed = queue.send_messages(messages) if messages else set()
        for message in messages:
            if message.dedupe_key not in failed:
                store.forget_digest_user(day, str(message.payload["user_id"]))
                queued += 1
        more = more or len(users) >= USERS_PER_PASS
    if more:
        queue.send_messages([OutboxMessage(f"digest-due:{now}", DIGEST_DUE)])
    return queued


def digest_notices(store: ReachStore, user_id: str, day: str, dedupe_key: str, public_url: str,
                   ) -> dict[str, Notice]:
    """{channel: the notice of that channel's lines} for the user's digest of ``day``."""
    by_channel: dict[str, list[str]] = {}
    for channel, line in store.digest_lines(user_id, day):
        by_channel.setdefault(channel, []).append(line)
    found = {}
    for channel, lines in by_channel.items():
        count = f"{len(lines)} update{'s' if len(lines) > 1 else ''}"
        found[channel] = Notice(user_id, "", "", "digest", dedupe_key, f"Your Convoy digest for {day}",
                                (f"{count} from your games on {day}.", *lines), f"{public_url}/#/")
    return found
