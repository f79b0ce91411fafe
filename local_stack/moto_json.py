"""The answers of moto's stream and queue reads, written in one walk over their shape (issue 29).

moto 5.2.5 writes an answer with a generic, model-driven serializer that looks every value of
the result up through a chain of attribute "pickers" (aliases, snake_case names, prefixes):
built for results that are model objects, it costs ~30 µs a value. A ``GetRecords`` of a
hundred stream records (each a whole item image) took ~70 ms of CPU under the emulator's lock
(cProfile: 98 % of the request in ``moto/core/serialize.py``), so every other AWS call of the
process, a turn's included, could wait that long behind the relay's poll.

The operations in ``PLAIN_ANSWERS`` answer with plain data (dicts, lists, strings, numbers,
datetimes) built by moto's handlers. For those, ``write`` walks the output shape as the
serializer does, with its rules for each type (strings ``str()``-ed, integers ``int()``-ed,
blobs base64, timestamps by moto's own ``TimestampSerializer``, ``None`` members left out,
serialized member names), but takes a dict's value by its key. The walk gives up
(``NotPlain``: moto's serializer writes the answer) wherever the pickers could have chosen
differently: a value that is not a dict where the shape has a structure, or a dict with a key
the shape does not name (an alias the pickers might have taken). Errors, other operations,
other protocols and moto's response transformers keep moto's serializer. The one difference
left is the order of keys within a JSON object, which no JSON reader sees.
"""

from __future__ import annotations

import base64
import json
from enum import Enum
from typing import Any

from local_stack.patching import replace, replaced

PLAIN_ANSWERS = frozenset({
    ("dynamodbstreams", "GetRecords"),
    ("sqs", "ReceiveMessage"), ("sqs", "SendMessage"), ("sqs", "SendMessageBatch"),
    ("sqs", "DeleteMessageBatch"), ("sqs", "GetQueueAttributes"), ("sqs", "GetQueueUrl"),
})
_original: list[Any] = []  # moto's ActionResult.execute_result (the equivalence test uses it)


class NotPlain(Exception):
    """The result holds something only moto's serializer knows how to pick from."""


def install() -> None:
    """Route the answers of ``PLAIN_ANSWERS`` through ``write`` (idempotent)."""
    from moto.core.responses import ActionResult

    if replaced(ActionResult, "execute_result"):
        return
    _original.append(ActionResult.execute_result)
    replace(ActionResult, "execute_result", execute_result)  # every handler's results go through it


def original_execute_result(result: Any, context: Any) -> Any:
    """moto's own writer (for the test that compares both)."""
    return _original[0](result, context)


def execute_result(result: Any, context: Any) -> Any:
    """``ActionResult.execute_result``: the fast writer where it applies, moto's elsewhere."""
    if not _applies(result, context):
        return original_execute_result(result, context)
    service, operation = context.service_model, context.operation_model
    try:
        written = write(result.result, operation.output_shape) if operation.output_shape is not None else {}
    except NotPlain:
        return original_execute_result(result, context)
    if written is _ABSENT:  # a None result: the serializer writes an empty object
        written = {}
    version = service.metadata.get("jsonVersion", "1.0")
    status = operation.http.get("responseCode", 200)
    return status, {"Content-Type": f"application/x-amz-json-{version}"}, json.dumps(written)


def _applies(result: Any, context: Any) -> bool:
    """A successful answer of ``PLAIN_ANSWERS`` in AWS's JSON protocol, written as moto writes
    it by default (no response transformer, no pretty printing, epoch-second timestamps)."""
    from moto import settings
    from moto.core.serialize import BaseJSONSerializer

    service, serializer = context.service_model, context.serializer_class
    return ((service.service_name, context.operation_model.name) in PLAIN_ANSWERS
            and not isinstance(result.result, Exception) and service.protocol == "json"
            and issubclass(serializer, BaseJSONSerializer)
            and serializer.DEFAULT_TIMESTAMP_FORMAT == BaseJSONSerializer.DEFAULT_TIMESTAMP_FORMAT
            and not getattr(context.response, "RESPONSE_KEY_PATH_TO_TRANSFORMER", None)
            and not settings.PRETTIFY_RESPONSES)


_ABSENT = object()  # a structure that is None: moto's serializer writes no key for it


def write(value: Any, shape: Any) -> Any:
    """``value`` as moto's JSON serializer writes it for ``shape`` (``_ABSENT``: nothing)."""
    kind = shape.type_name
    if kind == "structure":
        return _structure(value, shape)
    if kind == "list":
        if not isinstance(value, list | tuple):
            raise NotPlain(type(value).__name__)
        items = [write(item, shape.member) for item in value]
        return [item if written is _ABSENT else written for item, written in zip(value, items, strict=True)]
    if kind == "map":
        if not isinstance(value, dict):
            raise NotPlain(type(value).__name__)
        entries = ((key, write(item, shape.value)) for key, item in value.items())
        return {key: written for key, written in entries if written is not _ABSENT}
    return _scalar(value, shape, kind)


def _structure(value: Any, shape: Any) -> Any:
    if value is None:
        return _ABSENT
    if shape.is_document_type:
        return value
    if not isinstance(value, dict):
        raise NotPlain(type(value).__name__)
    members = shape.members
    written: dict[str, Any] = {}
    for key, item in value.items():
        member = members.get(key)
        if member is None:
            raise NotPlain(f"{shape.name} has no member {key}")
        if item is None:
            continue
        out = write(item, member)
        if out is not _ABSENT:
            written[member.serialization.get("name", key)] = out
    return written


def _scalar(value: Any, shape: Any, kind: str) -> Any:
    if kind == "string":
        if isinstance(value, Enum):
            value = value.value
        return value if value is None or value == {} or value == [] else str(value)
    if kind in ("integer", "long"):
        return int(value)
    if kind in ("float", "double"):
        return float(value)
    if kind == "boolean":
        return value
    if kind == "blob":
        data = value.encode("utf-8") if isinstance(value, str) else value
        return base64.b64encode(data).strip().decode("utf-8")
    if kind == "timestamp":
        return _timestamp(value, shape)
    raise NotPlain(kind)


def _timestamp(value: Any, shape: Any) -> Any:
    from moto.core.serialize import BaseJSONSerializer, TimestampSerializer

    holder: dict[str, Any] = {}
    TimestampSerializer(BaseJSONSerializer.DEFAULT_TIMESTAMP_FORMAT).serialize(holder, value, shape, "t")
    return holder["t"]
