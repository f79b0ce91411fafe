"""Mail under ``make run`` (issue 33): what the functions send through SES lands in the local
mailbox, as the user pool's confirmation codes do (docs/accounts.md, "Getting the confirmation
code locally").

The notifier's adapter is the one used on AWS (infra/ses_mail.py: SES v2 ``SendEmail``, raw
MIME); the emulator is moto's SES, which checks the sender's identity like SES does. This module
verifies the sender's identity in moto when the stack starts (on AWS the operator verifies it:
docs/deploy.md), and makes moto's send also keep each mail in the mailbox directory:
``<data dir>/mailbox/<address>/<n>.eml`` (one file per mail, RFC 5322, open it with any mail
program), with a log line on stderr. In tests: ``stack.emulator.mailbox.mails_for(email)``.
"""

from __future__ import annotations

from email.utils import getaddresses, parseaddr
from typing import Any

from local_stack import user_pool
from local_stack.patching import replace, replaced

LOCAL_SENDER = "Convoy <notify@example.org>"  # template.yaml MailFromAddress's default
_boxes: list[user_pool.Mailbox] = []


def install(mailbox: user_pool.Mailbox) -> None:
    """Make moto's SES keep every mail it accepts in ``mailbox`` (idempotent patch)."""
    from moto.ses.models import SESBackend

    _boxes[:] = [mailbox]
    if replaced(SESBackend, "send_raw_email"):
        return
    original = SESBackend.send_raw_email

    def send_raw_email(self: Any, source: str, destinations: list[str], raw_data: str) -> Any:
        sent = original(self, source, list(destinations), raw_data)
        for address in sorted({a.lower() for _, a in getaddresses(list(sent.destinations)) if a}):
            for box in _boxes:
                box.deliver_mail(address, raw_data.encode("utf-8"))
        return sent

    replace(SESBackend, "send_raw_email", send_raw_email)


def verify_sender(sesv2: Any, sender: str = LOCAL_SENDER) -> None:
    """The sender's domain as a verified identity of the emulator's SES."""
    domain = parseaddr(sender)[1].rpartition("@")[2]
    try:
        sesv2.create_email_identity(EmailIdentity=domain)
    except Exception as exc:  # already there after a restart (AlreadyExistsException)
        if "AlreadyExists" not in str(exc):
            raise
