"""The local pool's codes and lockouts (local_stack/pool_codes.py) against moto's cognito-idp in
process, through the API's own adapter (infra/cognito.py), on a clock the test moves.

Issue 28 item 11: 300 wrong confirmation codes and then the right one, and 100 wrong
passwords and then the right one, were all accepted; Cognito locks a name out after five
failures in a row (1 s, then twice as long after each further failure, up to 15 minutes).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from functions.ports import IdentityRejected
from infra.cognito import CognitoIdentity
from local_stack import pool_codes
from local_stack.user_pool import ensure_user_pool

PASSWORD = "Convoy-test-1"
Mails = list[tuple[str, str, str]]


class Clock:
    def __init__(self) -> None:
        self.at = 1_800_000_000.0

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def pool(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[CognitoIdentity, Mails, Clock]]:
    mails: Mails = []
    clock = Clock()
    pool_codes.install(lambda address, subject, code: mails.append((address, subject, code)))
    monkeypatch.setattr(pool_codes, "_now", clock)
    saved = os.environ.pop("AWS_ENDPOINT_URL", None)
    try:
        with mock_aws():
            client = boto3.client("cognito-idp", region_name="us-east-1")
            made = ensure_user_pool(client, "http://unused")
            yield CognitoIdentity(lambda: client, made["COGNITO_CLIENT_ID"]), mails, clock
    finally:
        if saved is not None:
            os.environ["AWS_ENDPOINT_URL"] = saved


def _code(mails: Mails, address: str, kind: str = "confirmation") -> str:
    return [code for to, subject, code in mails if to == address and kind in subject][-1]


def _refusal(call: Any, *args: str) -> str:
    with pytest.raises(IdentityRejected) as refused:
        call(*args)
    return refused.value.code


def _the_pool() -> Any:
    from moto.cognitoidp.models import cognitoidp_backends

    (found,) = cognitoidp_backends["123456789012"]["us-east-1"].user_pools.values()
    return found


def test_wrong_confirmation_codes_lock_the_name_out_as_cognito_does(pool: Any) -> None:
    identity, mails, clock = pool
    identity.sign_up("ada@example.com", PASSWORD, "Ada")
    right = _code(mails, "ada@example.com")
    wrong = "000000" if right != "000000" else "111111"
    # five wrong codes are only wrong
    refused = [_refusal(identity.confirm, "ada@example.com", wrong) for _ in range(5)]
    assert refused == ["BAD_CONFIRMATION_CODE"] * 5
    # then the name is locked for 1 s: even the right code is refused, and not counted
    assert _refusal(identity.confirm, "ada@example.com", right) == "BAD_CONFIRMATION_CODE"
    clock.at += 1.0
    assert _refusal(identity.confirm, "ada@example.com", wrong) == "BAD_CONFIRMATION_CODE"  # locks 2 s
    clock.at += 1.5
    assert _refusal(identity.confirm, "ada@example.com", right) == "BAD_CONFIRMATION_CODE"
    clock.at += 0.5
    identity.confirm("ada@example.com", right)  # the lock over, the right code confirms
    again = _refusal(identity.confirm, "ada@example.com", right)
    assert again == "BAD_CONFIRMATION_CODE"  # confirmed already: told like a wrong code


def test_three_hundred_wrong_codes_then_the_right_one_is_refused(pool: Any) -> None:
    identity, mails, clock = pool
    identity.sign_up("bob@example.com", PASSWORD, "Bob")
    right = _code(mails, "bob@example.com")
    for n in range(300):  # the run: one guess every 50 ms
        clock.at += 0.05
        guess = f"{n:06d}" if f"{n:06d}" != right else "999999"
        assert _refusal(identity.confirm, "bob@example.com", guess) == "BAD_CONFIRMATION_CODE"
    clock.at += 0.05
    assert _refusal(identity.confirm, "bob@example.com", right) == "BAD_CONFIRMATION_CODE"


def test_wrong_passwords_lock_sign_in_out_and_the_lock_grows(pool: Any) -> None:
    identity, mails, clock = pool
    identity.sign_up("cy@example.com", PASSWORD, "Cy")
    identity.confirm("cy@example.com", _code(mails, "cy@example.com"))
    for _ in range(100):  # the run: a hundred wrong passwords, 50 ms apart
        clock.at += 0.05
        assert _refusal(identity.sign_in, "cy@example.com", "Wrong-pass-1") == "BAD_CREDENTIALS"
    assert _refusal(identity.sign_in, "cy@example.com", PASSWORD) == "BAD_CREDENTIALS"  # locked
    tries = pool_codes._book(_the_pool())[pool_codes.name_key("password", "cy@example.com")]
    # counted: five, then one as each lock ran out (after 1 s, then 2 s): the 7th locks 4 s
    assert tries.failures == 7 and tries.locked_until - tries.last_failure == 4.0
    clock.at = tries.locked_until
    assert identity.sign_in("cy@example.com", PASSWORD).id_token  # the lock over: the right one works
    assert _refusal(identity.sign_in, "cy@example.com", "Wrong-pass-1") == "BAD_CREDENTIALS"  # counted afresh
    assert pool_codes._book(_the_pool())[pool_codes.name_key("password", "cy@example.com")].failures == 1


def test_an_unknown_address_is_locked_out_alike(pool: Any) -> None:
    identity, _, clock = pool
    for _ in range(6):
        assert _refusal(identity.sign_in, "nobody@example.com", PASSWORD) == "BAD_CREDENTIALS"
    assert pool_codes.locked(_the_pool(), pool_codes.name_key("password", "nobody@example.com"), clock())


def test_fifteen_quiet_minutes_forget_the_failures(pool: Any) -> None:
    identity, mails, clock = pool
    identity.sign_up("di@example.com", PASSWORD, "Di")
    identity.confirm("di@example.com", _code(mails, "di@example.com"))
    for _ in range(5):
        _refusal(identity.sign_in, "di@example.com", "Wrong-pass-1")
    clock.at += pool_codes.QUIET_RESET
    assert identity.sign_in("di@example.com", PASSWORD).id_token


def test_forgot_and_reset_mail_a_real_code_and_only_it_resets(pool: Any) -> None:
    identity, mails, _ = pool
    identity.sign_up("ed@example.com", PASSWORD, "Ed")
    identity.confirm("ed@example.com", _code(mails, "ed@example.com"))
    identity.forgot_password("ed@example.com")
    identity.forgot_password("nobody@example.com")  # simulated delivery: no error, no mail
    code = _code(mails, "ed@example.com", "reset")
    assert not [m for m in mails if m[0] == "nobody@example.com"]
    moto_style = "moto-confirmation-code:123456"  # moto's own codes pass its check: not here
    wrong = "BAD_CONFIRMATION_CODE"
    assert _refusal(identity.reset_password, "ed@example.com", moto_style, "New-pass-1") == wrong
    assert _refusal(identity.reset_password, "nobody@example.com", code, "New-pass-1") == wrong
    identity.reset_password("ed@example.com", code, "New-pass-1")
    assert identity.sign_in("ed@example.com", "New-pass-1").id_token
    assert _refusal(identity.reset_password, "ed@example.com", code, "Other-pass-1") == wrong  # used up


def test_resend_mails_a_new_code_to_an_unconfirmed_account(pool: Any) -> None:
    identity, mails, _ = pool
    identity.sign_up("fay@example.com", PASSWORD, "Fay")
    first = _code(mails, "fay@example.com")
    identity.resend_code("fay@example.com")
    second = _code(mails, "fay@example.com")
    assert len([m for m in mails if m[0] == "fay@example.com"]) == 2
    if first != second:
        assert _refusal(identity.confirm, "fay@example.com", first) == "BAD_CONFIRMATION_CODE"
    identity.confirm("fay@example.com", second)
    assert _refusal(identity.resend_code, "fay@example.com") == "INVALID_ACCOUNT_REQUEST"  # confirmed
