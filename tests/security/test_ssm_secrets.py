"""Secrets from SSM Parameter Store SecureStrings, read once, lazily (issue 11, item 5), under moto:
through Powertools' parameters utility over the process's boto3 SSM client (infra/secrets.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest

from composition import wiring
from functions.settings import Settings
from infra.secrets import PARAMETER_VARIABLES, OperatorTokenTooShort, SecretUnavailable, with_secrets
from local_stack.parameters import seed_parameters

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "operator-token-from-ssm-0123456789abcdef"
VARIABLES = ("CONVOY_OPERATOR_TOKEN", "CONVOY_OPERATOR_TOKEN_PARAMETER", "TELEGRAM_BOT_TOKEN_PARAMETER",
             "TELEGRAM_WEBHOOK_SECRET_PARAMETER", "TELEGRAM_BOT_TOKEN", "TELEGRAM_WEBHOOK_SECRET")


@pytest.fixture
def ssm(aws: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """moto's SSM in-process (tests/security/conftest.py), a fresh composition root, SSM
    client and secrets cache."""
    from infra import aws_clients, secrets

    # every secret's parameter variable: a local stack started earlier in this process names its own
    for name in (*VARIABLES, *PARAMETER_VARIABLES.values(), "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL_SSM"):
        monkeypatch.delenv(name, raising=False)
    wiring.reset()
    aws_clients.reset()
    secrets.clear_cache()  # values are kept per process: one test's must not leak
    yield boto3.client("ssm", region_name="us-east-1")
    secrets.clear_cache()
    aws_clients.reset()
    wiring.reset()


def _count_reads() -> list[list[str]]:
    """The names of every GetParameters call sent on the functions' own SSM client
    (infra/aws_clients.py), seen through botocore's event system."""
    from infra import aws_clients

    calls: list[list[str]] = []

    def seen(params: dict[str, Any], **_: Any) -> None:
        assert params.get("WithDecryption") is True
        calls.append(list(params["Names"]))

    aws_clients.client("ssm").meta.events.register("provide-client-params.ssm.GetParameters", seen)
    return calls


def test_the_operator_token_comes_from_its_securestring_once(
    ssm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the token in a SecureString, and a stale plain variable beside it
    ssm.put_parameter(Name="/convoy/operator-token", Value=TOKEN, Type="SecureString")
    ssm.put_parameter(Name="/convoy/telegram-bot-token", Value="123:bot-token", Type="SecureString")
    monkeypatch.setenv("CONVOY_OPERATOR_TOKEN_PARAMETER", "/convoy/operator-token")
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN_PARAMETER", "/convoy/telegram-bot-token")
    monkeypatch.setenv("CONVOY_OPERATOR_TOKEN", "a-stale-plain-token-that-must-not-win-0000")
    calls = _count_reads()

    # When the settings are asked for, again and again
    first = wiring.settings()
    for _ in range(3):
        assert wiring.settings() is first

    # Then the parameters won, decrypted, in one call for both
    assert first.operator_token == TOKEN and first.telegram_bot_token == "123:bot-token"
    assert calls == [["/convoy/operator-token", "/convoy/telegram-bot-token"]]


def test_values_are_cached_until_their_maximum_age(ssm: Any) -> None:
    # Powertools' cache (infra/secrets.py): a rebuilt composition root reads the cache; a
    # value older than max_age is read again, so a rotation reaches it
    from infra.secrets import fetch_parameters

    ssm.put_parameter(Name="/convoy/operator-token", Value=TOKEN, Type="SecureString")
    calls = _count_reads()
    assert fetch_parameters(["/convoy/operator-token"], max_age=2) == {"/convoy/operator-token": TOKEN}
    ssm.put_parameter(Name="/convoy/operator-token", Value=TOKEN + "-rotated", Type="SecureString",
                      Overwrite=True)
    assert fetch_parameters(["/convoy/operator-token"], max_age=2) == {"/convoy/operator-token": TOKEN}
    time.sleep(2.1)
    assert fetch_parameters(["/convoy/operator-token"], max_age=2) == {
        "/convoy/operator-token": TOKEN + "-rotated"}
    assert len(calls) == 2


@pytest.mark.parametrize("code", ["AccessDeniedException", "InvalidKeyId", "InternalServerError"])
def test_an_ssm_refusal_stops_the_function_without_naming_a_value(ssm: Any, code: str) -> None:
    # Powertools raises some refusals and returns nothing for others (InvalidKeyId, 5xx):
    # either way the function must not start without its secret
    from botocore.stub import Stubber

    from infra import aws_clients
    from infra.secrets import fetch_parameters

    with Stubber(aws_clients.client("ssm")) as stub:
        stub.add_client_error("get_parameters", service_error_code=code, service_message=TOKEN,
                              http_status_code=400)
        with pytest.raises(SecretUnavailable) as failed:
            fetch_parameters(["/convoy/operator-token"])
    assert "/convoy/operator-token" in str(failed.value) and TOKEN not in str(failed.value)


def test_a_missing_parameter_stops_the_function_without_naming_a_value(ssm: Any) -> None:
    ssm.put_parameter(Name="/convoy/there", Value=TOKEN, Type="SecureString")
    env = {"CONVOY_OPERATOR_TOKEN_PARAMETER": "/convoy/not-there"}
    with pytest.raises(SecretUnavailable) as failed:
        with_secrets(Settings(), env)
    assert "/convoy/not-there" in str(failed.value) and TOKEN not in str(failed.value)


def test_an_operator_token_shorter_than_32_characters_is_refused(ssm: Any) -> None:
    # issue 11: OperatorToken had no minimum length
    ssm.put_parameter(Name="/convoy/operator-token", Value="short", Type="SecureString")
    with pytest.raises(OperatorTokenTooShort):
        with_secrets(Settings(), {"CONVOY_OPERATOR_TOKEN_PARAMETER": "/convoy/operator-token"})
    with pytest.raises(OperatorTokenTooShort):
        with_secrets(Settings(operator_token="x" * 31), {})
    with pytest.raises(OperatorTokenTooShort):  # the template's OperatorTokenMinLength raises the bar
        with_secrets(Settings(operator_token="x" * 40), {"CONVOY_OPERATOR_TOKEN_MIN_LENGTH": "48"})
    assert with_secrets(Settings(operator_token="x" * 32), {}).operator_token == "x" * 32
    assert with_secrets(Settings(), {}).operator_token is None  # no operator at all is fine


def test_the_local_stack_seeds_its_own_securestrings(ssm: Any) -> None:
    env = {"CONVOY_OPERATOR_TOKEN": TOKEN, "TELEGRAM_WEBHOOK_SECRET": "hook-secret"}
    named = seed_parameters(ssm, env)
    assert named == {"CONVOY_OPERATOR_TOKEN_PARAMETER": "/convoy/local/operator-token",
                     "TELEGRAM_WEBHOOK_SECRET_PARAMETER": "/convoy/local/telegram-webhook-secret"}
    stored = ssm.get_parameter(Name="/convoy/local/operator-token", WithDecryption=True)["Parameter"]
    assert (stored["Type"], stored["Value"]) == ("SecureString", TOKEN)
    settings = with_secrets(Settings(), {k: v for k, v in env.items() if k.endswith("_PARAMETER")})
    assert settings.operator_token == TOKEN and settings.telegram_webhook_secret == "hook-secret"
    # a later stack of the same process without the secret drops its stale parameter name
    del env["TELEGRAM_WEBHOOK_SECRET"]
    seed_parameters(ssm, env)
    assert "TELEGRAM_WEBHOOK_SECRET_PARAMETER" not in env


def test_importing_the_api_does_not_import_the_parameters_utility() -> None:
    # the cold import stays cheap (issue 9): secrets are fetched at first use, not at import
    probe = ("import sys, composition.api, composition.notifier, composition.telegram; "
             "print(sorted(m for m in sys.modules if 'parameters' in m or m == 'boto3'))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "CONVOY_OPERATOR_TOKEN_PARAMETER": "/convoy/x"}, check=True)
    assert out.stdout.strip() == "[]"
