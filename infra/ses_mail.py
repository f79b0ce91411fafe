"""Mail through Amazon SES (issue 33): ``MailSender`` over SES v2 ``SendEmail`` with raw MIME.

Raw rather than SES's simple content: the mail carries headers SES's simple form would not set
for us everywhere (``List-Unsubscribe`` and ``List-Unsubscribe-Post``, RFC 8058) and, for a turn
result, the resolution map as an inline picture (``multipart/related``, ``cid:map``), which
shows without the reader allowing remote images. The message is built with the standard
library's ``email`` package.

Sent ``From`` the deployment's address (``MAIL_FROM``, on the SES identity the template names)
through its configuration set (``MAIL_CONFIGURATION_SET``: the account-level suppression list
for bounces and complaints applies, and its event destination is where an operator watches
them; docs/notifications.md, "Bounces and complaints"). A refusal that will never succeed for
this address (``MessageRejected``, an address SES finds malformed or suppressed) is
``MailRefused``: the notifier does not retry it; anything else is raised for a retry.
"""

from __future__ import annotations

from collections.abc import Callable
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Any

from functions.ports.reach import MailMessage, MailRefused

PERMANENT = frozenset({"MessageRejected", "BadRequestException", "AccountSuspendedException",
                       "MailFromDomainNotVerifiedException", "NotFoundException"})


def mime(message: MailMessage, sender: str) -> bytes:
    """The mail as RFC 5322 bytes: text, and HTML (with the inline map when there is one)."""
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = message.to
    mail["Subject"] = message.subject
    mail["Date"] = formatdate(usegmt=True)
    mail["Message-ID"] = make_msgid(domain=sender.rpartition("@")[2].strip(">") or None)
    for name, value in message.headers.items():
        mail[name] = value
    mail.set_content(message.text)
    mail.add_alternative(message.html, subtype="html")
    if message.inline_png:
        html_part = mail.get_body(preferencelist=("html",))  # the alternative just added
        assert html_part is not None
        html_part.add_related(message.inline_png, maintype="image", subtype="png", cid="<map>",
                              filename="map.png", disposition="inline")
    return bytes(mail)


class SesMailSender:
    """``MailSender`` on SES v2 (client built lazily by ``client``)."""

    def __init__(self, client: Callable[[], Any], sender: str, configuration_set: str = "") -> None:
        self._client = client
        self._sender = sender
        self._configuration_set = configuration_set

    def send(self, message: MailMessage) -> str:
        from infra import aws_errors

        request: dict[str, Any] = {
            "FromEmailAddress": self._sender,
            "Destination": {"ToAddresses": [message.to]},
            "Content": {"Raw": {"Data": mime(message, self._sender)}},
        }
        if self._configuration_set:
            request["ConfigurationSetName"] = self._configuration_set
        try:
            return str(self._client().send_email(**request).get("MessageId", ""))
        except aws_errors.ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in PERMANENT:
                raise MailRefused(exc.response["Error"].get("Code", "")) from None
            raise
