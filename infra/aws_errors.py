"""botocore's exception classes, in one place for the adapters (``except aws_errors.ClientError:``).

The classes are botocore's own, raised by the clients infra/aws_clients.py builds; imported
plainly (issue 30 item 4: no lazy re-exports; SnapStart's snapshot holds them built).
``ParamValidationError`` is the one ``BotoCoreError`` that is not "no answer": botocore
refused our request before sending it (a bug here, not a busy service).
"""

from __future__ import annotations

from botocore.exceptions import BotoCoreError, ClientError, ParamValidationError

__all__ = ["BotoCoreError", "ClientError", "ParamValidationError"]
