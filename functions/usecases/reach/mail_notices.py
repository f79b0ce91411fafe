"""A notice as a mail (issue 33 item 2): subject, plain text and HTML, the one-click unsubscribe
headers of RFC 8058, and the resolution map inline for a turn result.

Every mail carries ``List-Unsubscribe: <https://.../mail/unsubscribe?t=...>`` and
``List-Unsubscribe-Post: List-Unsubscribe=One-Click``: a mail client's "unsubscribe" button
POSTs to the link and that kind of mail stops at once
(functions/usecases/notifications/notice_preferences.py).
The same link is in the footer for people. Text is escaped for HTML; nothing but the notice's
own lines goes in (no order, no other channel's press: personal_notices.py).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from functions.ports.reach import MailMessage
from functions.usecases.notifications import unsubscribe_url
from functions.usecases.reach.personal_notices import Notice

KIND_WORDS = {
    "reminder": "order reminders",
    "turn_result": "turn results",
    "press": "press received while away",
    "game_over": "game-over notices",
    "digest": "the daily digest",
}


def unsubscribe_headers(url: str) -> dict[str, str]:
    return {"List-Unsubscribe": f"<{url}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


def mail_for(notice: Notice, to: str, *, public_url: str, link_key: str,
             map_png: bytes | None = None) -> MailMessage:
    """The mail of one notice to ``to`` (the account's verified address)."""
    url = unsubscribe_url(public_url, link_key, notice.user_id, notice.kind)
    return compose(to, notice.subject, notice.lines, notice.link, notice.kind, url, map_png)


def compose(to: str, subject: str, lines: Sequence[str], link: str, kind: str, unsubscribe: str,
            map_png: bytes | None = None) -> MailMessage:
    """Subject, text and HTML with the footer every mail of ``kind`` carries."""
    words = KIND_WORDS.get(kind, "these mails")
    footer = (f"You get {words} because you play in this game with a Convoy account. "
              f"Settings: {link.split('#')[0]}#/settings. Unsubscribe from {words}: {unsubscribe}")
    text = "\n\n".join([*lines, f"Open the game: {link}", "--", footer]) + "\n"
    paragraphs = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    picture = ('<p><img src="cid:map" alt="The resolution map" style="max-width:100%"></p>'
               if map_png else "")
    body = (f'<!doctype html><html><body style="font-family:sans-serif">{paragraphs}{picture}'
            f'<p><a href="{html.escape(link, quote=True)}">Open the game</a></p>'
            f'<hr><p style="color:#555;font-size:small">{html.escape(footer.split(" Unsubscribe")[0])} '
            f'<a href="{html.escape(unsubscribe, quote=True)}">Unsubscribe from {html.escape(words)}</a>.</p>'
            "</body></html>")
    return MailMessage(to=to, subject=subject, text=text, html=body,
                       headers=unsubscribe_headers(unsubscribe), inline_png=map_png)
