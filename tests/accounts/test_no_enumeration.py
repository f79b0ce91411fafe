"""No answer of the account routes tells whether an address has an account (issue 28 item 11:
``POST /auth/signup`` answered 409 ``USER_EXISTS``), the app client's
``PreventUserExistenceErrors: ENABLED`` semantics, kept by the API on every /auth/* route.

In process over the fake pool (testkit/account_fakes.py), which, like Cognito's SignUp, does
say ``USER_EXISTS``: the use cases must keep it from the caller. The emulated pool's own
behaviour (codes, lockouts) is tested over HTTP in tests/system/test_accounts.py and against
moto in tests/local_stack/test_pool_codes.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from functions.usecases.accounts import accounts
from local_stack.template import load_template, resources_of
from testkit.api_harness import InProcessApi

PASSWORD = "Password-1"


def _shape(answer: Any) -> tuple[int, Any]:
    """What a caller can compare between two answers: the status and the body, ids aside."""
    body = dict(answer.body or {})
    body.pop("user_id", None)
    return answer.status, body


@pytest.fixture
def known(api: InProcessApi) -> dict[str, str]:
    """A confirmed account, an unconfirmed one, and an address nobody signed up with."""
    api.pool.user("Confirmed")
    api.call("POST", "/auth/signup",
             {"email": "pending@example.com", "password": PASSWORD, "display_name": "P"})
    return {"confirmed": "confirmed@example.com", "pending": "pending@example.com",
            "unknown": "nobody@example.com"}


def test_sign_up_answers_every_address_alike(api: InProcessApi, known: dict[str, str]) -> None:
    answers = {kind: api.call("POST", "/auth/signup", {"email": email, "password": "Another-pass-9",
                                                       "display_name": "Eve"})
               for kind, email in known.items()}
    assert {kind: _shape(a) for kind, a in answers.items()} == {
        kind: (201, {"confirmation": "required"}) for kind in known}
    ids = [a.body["user_id"] for a in answers.values()]
    assert len(set(ids)) == 3 and api.pool.users["confirmed@example.com"]["sub"] not in ids
    # the existing accounts are untouched: same password, same name; the pending one got a new code
    assert api.pool.users["confirmed@example.com"]["password"] == PASSWORD
    assert api.pool.users["confirmed@example.com"]["name"] == "Confirmed"
    assert ("pending@example.com", "confirmation", "123456") in api.pool.mails


def test_a_weak_password_is_refused_for_every_address_alike(api: InProcessApi, known: dict[str, str]) -> None:
    answers = [_shape(api.call("POST", "/auth/signup", {"email": e, "password": "weak", "display_name": "E"}))
               for e in known.values()]
    assert answers[0][0] == 400 and answers[0][1]["code"] == "WEAK_PASSWORD"
    assert answers == [answers[0]] * 3


@pytest.mark.parametrize(("path", "body"), [
    ("/auth/confirm", {"code": "000000"}),
    ("/auth/signin", {"password": "Wrong-pass-1"}),
    ("/auth/forgot", {}),
    ("/auth/reset", {"code": "000000", "password": "Another-pass-9"}),
])
def test_confirm_sign_in_forgot_and_reset_answer_every_address_alike(
    api: InProcessApi, known: dict[str, str], path: str, body: dict[str, str]
) -> None:
    shapes = {kind: _shape(api.call("POST", path, {"email": email, **body})) for kind, email in known.items()}
    assert len(set(map(repr, shapes.values()))) == 1, shapes


def test_a_confirmed_account_confirmed_again_is_a_wrong_code_not_already_confirmed(api: InProcessApi) -> None:
    api.pool.user("Done")
    again = api.call("POST", "/auth/confirm", {"email": "done@example.com", "code": "123456"})
    assert (again.status, again.body["code"]) == (400, "BAD_CONFIRMATION_CODE")


def test_forgot_then_reset_sets_a_new_password(api: InProcessApi) -> None:
    api.pool.user("Forgetful")
    assert api.call("POST", "/auth/forgot", {"email": "forgetful@example.com"}).body == {"requested": True}
    (_, what, code), = [m for m in api.pool.mails if m[0] == "forgetful@example.com"]
    reset = api.call("POST", "/auth/reset", {"email": "forgetful@example.com", "code": code,
                                             "password": "Brand-new-1"})
    assert reset.status == 200 and reset.body == {"reset": True} and what == "reset"
    signed_in = api.call("POST", "/auth/signin",
                         {"email": "forgetful@example.com", "password": "Brand-new-1"})
    assert signed_in.status == 200
    weak = api.call("POST", "/auth/reset", {"email": "forgetful@example.com", "code": code, "password": "x"})
    assert (weak.status, weak.body["code"]) == (400, "WEAK_PASSWORD")


def test_the_password_policy_checked_first_is_the_pools() -> None:
    """The API checks the policy before the pool looks the address up: it must be template.yaml's."""
    (pool,) = resources_of(load_template(), "AWS::Cognito::UserPool").values()
    policy = pool["Policies"]["PasswordPolicy"]
    assert policy["MinimumLength"] == accounts.PASSWORD_MIN_LENGTH
    assert (policy["RequireLowercase"], policy["RequireUppercase"], policy["RequireNumbers"],
            policy["RequireSymbols"]) == (True, True, True, False)
    for weak in ("Short-1", "alllower-1", "ALLUPPER-1", "NoDigits-here"):
        with pytest.raises(Exception, match="needs"):
            accounts.check_password_policy(weak)
    accounts.check_password_policy("Good-pass-1")
