"""botocore's exception classes, imported the first time one is needed (issue 9 item 6).

``except aws_errors.ClientError:`` looks the name up only when an exception reaches that
clause, so a request that meets no AWS error never imports botocore (its package
``__init__`` and vendored exceptions were ~44 M instructions of every function's first
request). The classes are botocore's own: Convoy's small JSON-protocol clients raise them
(infra/aws_json.py), and so do boto3 clients (the tests').
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from botocore.exceptions import BotoCoreError, ClientError  # noqa: F401 - the lazy names

NAMES = ("BotoCoreError", "ClientError")


def __getattr__(name: str) -> Any:
    if name not in NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from botocore import exceptions

    value = getattr(exceptions, name)
    globals()[name] = value  # later lookups are plain attribute reads
    return value
