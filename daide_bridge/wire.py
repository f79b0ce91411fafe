"""The Client-Server Protocol's message structures (version 1 revision 13, chapter 3).

Every message is a four-octet header — type (8 bits), pad (8 bits), remaining length
(16 bits), network byte order — then exactly that many octets:

- IM (0) initial message, client to server: version (16 bits) and the magic 0xDA10;
- RM (1) representation message, server to client: six-octet blocks defining variant
  tokens (empty for the standard map, which is all this bridge plays);
- DM (2) diplomacy message: one language message (daide_bridge/messages.py);
- FM (3) final message: empty, sent before closing;
- EM (4) error message: a 16-bit error code (``ErrorCode``), then the sender closes.

``Frame`` is one message; ``encode_frame``/``decode_header`` are pure. Standard library only.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum

HEADER = struct.Struct(">BxH")
INITIAL = struct.Struct(">HH")
VERSION = 1
MAGIC = 0xDA10
MAX_PAYLOAD = 0xFFFF


class Kind(IntEnum):
    IM = 0
    RM = 1
    DM = 2
    FM = 3
    EM = 4


class ErrorCode(IntEnum):
    """The codes a server sends; those a client sends about a server (0x07, 0x0A-0x0C) are not ours."""

    IM_TIMER_POPPED = 0x01
    IM_NOT_FIRST = 0x02
    IM_WRONG_ENDIAN = 0x03
    IM_WRONG_MAGIC = 0x04
    VERSION_INCOMPATIBLE = 0x05
    MORE_THAN_ONE_IM = 0x06
    UNKNOWN_MESSAGE = 0x08
    MESSAGE_TOO_SHORT = 0x09
    RM_FROM_CLIENT = 0x0D
    INVALID_TOKEN = 0x0E


@dataclass(frozen=True)
class Frame:
    kind: int
    payload: bytes = b""


def encode_frame(frame: Frame) -> bytes:
    if len(frame.payload) > MAX_PAYLOAD:
        raise ValueError(f"a DAIDE message carries at most {MAX_PAYLOAD} octets")
    return HEADER.pack(frame.kind, len(frame.payload)) + frame.payload


def decode_header(header: bytes) -> tuple[int, int]:
    """(message type, remaining length) of a four-octet header."""
    kind, length = HEADER.unpack(header)
    return int(kind), int(length)


def decode_frames(data: bytes) -> tuple[list[Frame], bytes]:
    """Every whole frame at the start of ``data``, and the bytes left over (a partial frame)."""
    frames = []
    while len(data) >= HEADER.size:
        kind, length = decode_header(data[: HEADER.size])
        end = HEADER.size + length
        if len(data) < end:
            break
        frames.append(Frame(kind, data[HEADER.size : end]))
        data = data[end:]
    return frames, data


def initial_message(version: int = VERSION) -> Frame:
    return Frame(Kind.IM, INITIAL.pack(version, MAGIC))


def check_initial(frame: Frame) -> ErrorCode | None:
    """Why an IM is refused, or None: the version must be ours and the magic 0xDA10
    (byte-swapped magic means the client forgot network byte order)."""
    if frame.kind != Kind.IM:
        return ErrorCode.IM_NOT_FIRST
    if len(frame.payload) != INITIAL.size:
        return ErrorCode.MESSAGE_TOO_SHORT
    version, magic = INITIAL.unpack(frame.payload)
    if magic == 0x10DA:
        return ErrorCode.IM_WRONG_ENDIAN
    if magic != MAGIC:
        return ErrorCode.IM_WRONG_MAGIC
    if version != VERSION:
        return ErrorCode.VERSION_INCOMPATIBLE
    return None


def error_message(code: ErrorCode) -> Frame:
    return Frame(Kind.EM, struct.pack(">H", code))
