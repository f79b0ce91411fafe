"""Mail over the local stack (issue 33, "Done when"): a player who owes orders gets exactly one
"your orders are due" mail before the deadline, one who submitted gets none, and the mail's
one-click unsubscribe (RFC 8058) stops the next one. The turn result that follows carries the
resolution map inline.

Everything runs as deployed: the reminder schedule fires the deadline function, which writes the
DEADLINE_APPROACHING outbox item; the stream relay queues it; the notifier looks the accounts'
verified addresses up in the user pool and sends through SES, which the local stack's emulator
keeps in the mailbox directory (local_stack/mail.py).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from email.message import EmailMessage
from email.utils import parsedate_to_datetime

import pytest
import requests

from local_stack.stack import LocalStack
from tests.system.client import Api
from tests.system.test_games_run_by_themselves import _wait_for

pytestmark = pytest.mark.system
POWERS = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY")
# 32-second phases; the reminder lead is min(reminder_seconds, phase // 4) = 8 s before the deadline:
# room for the whole path (schedule, stream, queue, notifier, SES) on a busy machine
FAST = {"MOVEMENT": 32, "RETREAT": 32, "ADJUSTMENT": 32}


def account(api: Api, stack: LocalStack, name: str) -> tuple[str, str]:
    """(email, ID token) of a new confirmed account."""
    email = f"{name.lower()}-{uuid.uuid4().hex[:8]}@example.com"
    body = {"email": email, "password": "Convoy-test-1"}
    api.call("POST", "/auth/signup", body={**body, "display_name": name}, expect=201)
    api.call("POST", "/auth/confirm", body={"email": email, "code": stack.emulator.mailbox.code_for(email)})
    return email, api.call("POST", "/auth/signin", body=body)["id_token"]


def reminders(stack: LocalStack, email: str) -> list[EmailMessage]:
    mails = stack.emulator.mailbox.mails_for(email)
    return [m for m in mails if str(m["Subject"]).startswith("Your orders are due")]


def results(stack: LocalStack, email: str) -> list[EmailMessage]:
    return [m for m in stack.emulator.mailbox.mails_for(email) if " resolved" in str(m["Subject"])]


def test_one_reminder_to_the_player_who_owes_none_to_the_one_who_submitted_and_unsubscribe_stops_it(
    stack: LocalStack,
) -> None:
    # Given a timed game: FRANCE and ENGLAND held by accounts, the rest by seat tokens
    api = Api(stack.url)
    # (no civil disorder: FRANCE misses two phases here and must keep the seat)
    settings = {"variant": "classical", "phase_seconds": FAST, "reminder_seconds": 8,
                "civil_disorder_after": 0}
    game = api.call("POST", "/games", body=settings, expect=201)["game_id"]
    france_mail, france = account(api, stack, "France")
    england_mail, england = account(api, stack, "England")
    tokens = {power: api.call("POST", f"/games/{game}/join", token=jwt, body={"power": power})["token"]
              for power, jwt in (("FRANCE", france), ("ENGLAND", england))}
    for power in POWERS:
        if power not in tokens:
            tokens[power] = api.call("POST", f"/games/{game}/join", body={"power": power})["token"]
    deadline = datetime.fromisoformat(api.call("GET", f"/games/{game}")["deadline"].replace("Z", "+00:00"))

    # When everyone but FRANCE submits
    for power in POWERS:
        if power != "FRANCE":
            api.call("POST", f"/games/{game}/orders", token=tokens[power],
                     body={"orders": [], "phase": "S1901M"})

    # Then FRANCE gets one reminder before the deadline, ENGLAND none
    (mail,) = _wait_for("FRANCE's reminder", lambda: reminders(stack, france_mail), timeout=45)
    assert parsedate_to_datetime(str(mail["Date"])) < deadline
    assert "S1901M" in str(mail["Subject"]) and "FRANCE" in mail.get_body(("plain",)).get_content()
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = str(mail["List-Unsubscribe"]).strip("<>")
    assert link.startswith(stack.url + "/mail/unsubscribe?t=")
    _wait_for("the turn result", lambda: results(stack, france_mail) and results(stack, england_mail),
              timeout=30)
    assert len(reminders(stack, france_mail)) == 1
    assert reminders(stack, england_mail) == []
    # the turn result shows the resolution map inline (multipart/related, cid:map)
    (result,) = results(stack, france_mail)
    pictures = [p for p in result.walk() if p.get_content_type() == "image/png"]
    assert len(pictures) == 1 and pictures[0].get_content().startswith(b"\x89PNG")
    html = result.get_body(("html",))
    assert html is not None and "cid:map" in html.get_content()

    # When FRANCE unsubscribes with one click (what a mail client's button sends)
    answer = requests.post(link, data={"List-Unsubscribe": "One-Click"}, timeout=10)
    assert answer.status_code == 200 and "no more mails of order reminders" in answer.text
    settings = api.call("GET", "/me/notifications", token=france)["preferences"]
    assert settings["mail"]["reminder"] == "never" and settings["mail"]["turn_result"] == "immediate"

    # Then in F1901M, where nobody submits, ENGLAND is reminded and FRANCE is not (one notice
    # reaches both: once ENGLAND has it, FRANCE's would be there too)
    _wait_for("ENGLAND's F1901M reminder", lambda: reminders(stack, england_mail), timeout=45)
    assert len(reminders(stack, france_mail)) == 1
    assert "F1901M" in str(reminders(stack, england_mail)[0]["Subject"])


def test_a_forged_or_altered_unsubscribe_link_changes_nothing(stack: LocalStack) -> None:
    api = Api(stack.url)
    _, token = account(api, stack, "Careful")
    user = api.call("GET", "/me", token=token)["user_id"]
    forged = requests.post(f"{stack.url}/mail/unsubscribe?t={user}.reminder.AAAA", timeout=10)
    assert forged.status_code == 400 and "not recognised" in forged.text
    page = requests.get(f"{stack.url}/mail/unsubscribe?t={user}.reminder.AAAA", timeout=10)
    assert page.status_code == 400
    choices = api.call("GET", "/me/notifications", token=token)["preferences"]
    assert choices["mail"]["reminder"] == "immediate"
