"""The template's Cognito user pool in moto's cognito-idp, and the mail it would send.

``ensure_user_pool`` creates the pool and app client of template.yaml (``UserPool``,
``UserPoolClient``: password policy, email as username, auth flows) once, and finds them
again after a restart (the data directory keeps moto's cognito-idp state). It returns the
environment the API reads: ``COGNITO_USER_POOL_ID``, ``COGNITO_CLIENT_ID``,
``COGNITO_REGION`` and ``COGNITO_JWKS_URL``.

What moto 5.2.5 does not do, and the smallest honest way around it (docs/accounts.md):

- **Codes and lockouts.** moto's ``SignUp`` creates an UNCONFIRMED user but makes no code,
  its ``ConfirmSignUp`` confirms whatever code it is given, and it never locks anyone out.
  ``install_confirmation_codes`` (local_stack/pool_codes.py) makes sign-up, resend and
  forgot-password draw a six-digit code (from moto's seeded random, so a journal replay draws
  the same one), "mail" it to the **local mailbox** (one file per address under
  ``<data dir>/mailbox/``, and a log line), check it as Cognito does, and lock out wrong
  passwords and wrong codes with Cognito's schedule. The API's adapter is the one used on AWS.
- **The JWKS URL.** moto signs tokens with the issuer
  ``https://cognito-idp.us-east-1.amazonaws.com/<pool id>``, which on AWS is also where the
  keys are; locally nothing answers there, so ``COGNITO_JWKS_URL`` points the verifier at the
  emulator's ``/<pool id>/.well-known/jwks.json`` (moto serves it). The issuer check is unchanged.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import threading
from datetime import UTC, datetime
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default as default_policy
from pathlib import Path
from typing import Any

from local_stack.backends import REGION
from local_stack.template import load_template, resources_of

log = logging.getLogger("convoy.local.mail")
POOL_NAME = "convoy-players"
POOL_KEYS = ("Policies", "UsernameAttributes", "AutoVerifiedAttributes", "UsernameConfiguration",
             "AccountRecoverySetting")
CLIENT_KEYS = ("ExplicitAuthFlows", "GenerateSecret", "PreventUserExistenceErrors", "ReadAttributes",
               "WriteAttributes", "EnableTokenRevocation")


def ensure_user_pool(client: Any, endpoint: str, template: dict[str, Any] | None = None) -> dict[str, str]:
    template = template or load_template()
    (pool_props,) = resources_of(template, "AWS::Cognito::UserPool").values()
    (client_props,) = resources_of(template, "AWS::Cognito::UserPoolClient").values()
    pools = client.list_user_pools(MaxResults=60).get("UserPools", [])
    pool_id = next((p["Id"] for p in pools if p["Name"] == POOL_NAME), None)
    if pool_id is None:
        request = {k: pool_props[k] for k in POOL_KEYS if k in pool_props}
        request["Schema"] = [_attribute(a) for a in pool_props.get("Schema", [])]
        pool_id = client.create_user_pool(PoolName=POOL_NAME, **request)["UserPool"]["Id"]
    clients = client.list_user_pool_clients(UserPoolId=pool_id, MaxResults=60).get("UserPoolClients", [])
    name = str(client_props["ClientName"])
    client_id = next((c["ClientId"] for c in clients if c["ClientName"] == name), None)
    if client_id is None:
        request = {k: client_props[k] for k in CLIENT_KEYS if k in client_props}
        client_id = client.create_user_pool_client(UserPoolId=pool_id, ClientName=name, **request)[
            "UserPoolClient"]["ClientId"]
    return {
        "COGNITO_USER_POOL_ID": pool_id, "COGNITO_CLIENT_ID": client_id, "COGNITO_REGION": REGION,
        "COGNITO_JWKS_URL": f"{endpoint}/{pool_id}/.well-known/jwks.json",
    }


def _attribute(attribute: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in attribute.items() if k in ("Name", "AttributeDataType", "Required", "Mutable")}


def moto_signing_key() -> Any:
    """moto's one signing key (every pool's ``json_web_key``, from its packaged JWKS). The data
    directory's snapshot stores this reference, as the key object itself does not pickle."""
    from joserfc import jwk
    from moto.utilities.utils import load_resource

    return jwk.RSAKey.import_key(load_resource("cognitoidp/resources/jwks-private.json"))


# ---------------------------------------------------------------- the local mailbox


class Mailbox:
    """Where the local pool's mail goes: ``<directory>/<address>.json`` holds the newest message."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def path_for(self, email: str) -> Path:
        return self.directory / (re.sub(r"[^A-Za-z0-9@._+-]", "_", email.lower()) + ".json")

    def deliver(self, email: str, code: str, subject: str = "Your Convoy confirmation code") -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        message = {"to": email.lower(), "subject": subject, "code": code,
                   "sent_at": datetime.now(UTC).isoformat(timespec="seconds")}
        temporary = self.path_for(email).with_suffix(".tmp")
        temporary.write_text(json.dumps(message))
        temporary.replace(self.path_for(email))
        log.warning("local mail to %s: %s %s (%s)", email, subject.removeprefix("Your Convoy ").lower(), code,
                    self.path_for(email))

    def deliver_mail(self, email: str, raw: bytes) -> Path:
        """Keep one mail (what SES was asked to send, issue 33) as ``<address>/<n>-<digest>.eml``.
        The same bytes twice are one mail: a restart replays the data directory's journal, SES
        calls included, and a replayed send must not fill the mailbox again."""
        folder = self.path_for(email).with_suffix("")
        folder.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(raw).hexdigest()[:16]
        with _mail_lock:
            known = list(folder.glob(f"*-{digest}.eml"))
            if known:
                return known[0]
            number = len(list(folder.glob("*.eml"))) + 1
            path = folder / f"{number:05d}-{digest}.eml"
            path.with_suffix(".tmp").write_bytes(raw)
            path.with_suffix(".tmp").replace(path)
        subject = next((line for line in raw.decode("utf-8", "replace").splitlines()
                        if line.lower().startswith("subject:")), "")
        log.warning("local mail to %s: %s (%s)", email, subject[8:].strip(), path)
        return path

    def mails_for(self, email: str) -> list[EmailMessage]:
        """Every mail kept for ``email``, oldest first, parsed."""
        folder = self.path_for(email).with_suffix("")
        return [message_from_bytes(p.read_bytes(), policy=default_policy)
                for p in sorted(folder.glob("*.eml"))]

    def code_for(self, email: str) -> str | None:
        try:
            return str(json.loads(self.path_for(email).read_text())["code"])
        except (OSError, ValueError, KeyError):
            return None


_mailbox: list[Mailbox] = []
_mail_lock = threading.Lock()


def install_confirmation_codes(mailbox: Mailbox) -> None:
    """Make moto's pool draw, mail and check codes and lock out wrong guesses, as Cognito does
    (local_stack/pool_codes.py); mail goes to ``mailbox`` (idempotent)."""
    from local_stack import pool_codes

    _mailbox[:] = [mailbox]
    pool_codes.install(_deliver)


def _deliver(address: str, subject: str, code: str) -> None:
    for box in _mailbox:
        box.deliver(address, code, subject)
