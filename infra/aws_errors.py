"""botocore's exception classes, imported the first time one is needed.

``except aws_errors.ClientError:`` looks the name up only when an exception reaches that
clause, so importing an adapter imports no AWS library (infra/aws_clients.py builds the
boto3 clients on first use too). The classes are botocore's own, raised by those clients.
``ParamValidationError`` is the one ``BotoCoreError`` that is not "no answer": botocore
refused our request before sending it (a bug here, not a busy service).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from botocore.exceptions import BotoCoreError, ClientError, ParamValidationError  # noqa: F401 - lazy

NAMES = ("BotoCoreError", "ClientError", "ParamValidationError")


def __getattr__(name: str) -> Any:
    if name not in NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from botocore import exceptions

    value = getattr(exceptions, name)
    globals()[name] = value  # later lookups are plain attribute reads
    return value
