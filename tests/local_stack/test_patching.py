"""The one way the local stack patches moto (local_stack/patching.py): a replacement is marked,
so an installer that runs again (every emulator a test starts) does not wrap its own wrapper."""

from __future__ import annotations

from pathlib import Path

import pytest
from moto.cognitoidp.models import CognitoIdpBackend
from moto.ses.models import SESBackend

from local_stack import mail, pool_codes, user_pool
from local_stack.patching import replace, replaced


class Library:
    def method(self) -> str:
        return "the library's"


def test_a_replacement_takes_the_place_of_the_library_s_method_and_is_marked_as_ours() -> None:
    class Patched(Library):
        pass

    # Given a class of the library's, not yet replaced
    assert not replaced(Patched, "method")

    # When a function of ours takes the method's place
    replace(Patched, "method", lambda self: "ours")

    # Then instances call ours, and only that class is marked
    assert Patched().method() == "ours"
    assert replaced(Patched, "method")
    assert not replaced(Library, "method") and Library().method() == "the library's"
    assert not replaced(Patched, "absent")


def test_installing_the_cognito_and_mail_patches_twice_wraps_moto_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # where the installers send codes and mail: copies, so a running emulator's stay as they were
    monkeypatch.setattr(pool_codes, "_deliver", list(pool_codes._deliver))
    monkeypatch.setattr(mail, "_boxes", list(mail._boxes))
    mailbox = user_pool.Mailbox(tmp_path)
    pool_codes.install(lambda address, subject, code: None)
    mail.install(mailbox)
    sign_up, send = CognitoIdpBackend.sign_up, SESBackend.send_raw_email

    pool_codes.install(lambda address, subject, code: None)
    mail.install(mailbox)

    assert (CognitoIdpBackend.sign_up, SESBackend.send_raw_email) == (sign_up, send)
    assert replaced(CognitoIdpBackend, "sign_up") and replaced(SESBackend, "send_raw_email")
