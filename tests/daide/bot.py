"""A minimal DAIDE client, written from the Client-Server Protocol (v1 r13) for the tests:
a real TCP socket, the IM, then DMs. Blocking and stdlib-only, so a test can drive it step
by step: ``send("NME ('testbot') ('1.0')")``, ``expect("MAP")``."""

from __future__ import annotations

import socket
import struct

from daide_bridge import wire
from daide_bridge.messages import Message, decode, encode, format_message, parse_message


class DaideBot:
    def __init__(self, host: str, port: int, timeout: float = 30.0, source: str | None = None) -> None:
        """``source``: the local address to connect from (127.0.0.2 ... on loopback: another host)."""
        self.sock = socket.create_connection(
            (host, port), timeout=timeout, source_address=(source, 0) if source else None
        )
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        self.buffer = b""
        self.seen: list[Message] = []

    def _write(self, frame: wire.Frame) -> None:
        self.sock.sendall(wire.encode_frame(frame))

    def hello(self) -> None:
        """IM, then the server's RM (empty: the standard map)."""
        self._write(wire.initial_message())
        kind, payload = self.frame()
        assert (kind, payload) == (wire.Kind.RM, b""), (kind, payload)

    def send(self, text: str) -> None:
        self._write(wire.Frame(wire.Kind.DM, encode(parse_message(text))))

    def frame(self) -> tuple[int, bytes]:
        while True:
            frames, self.buffer = wire.decode_frames(self.buffer)
            if frames:
                first, *rest = frames
                self.buffer = b"".join(wire.encode_frame(f) for f in rest) + self.buffer
                return first.kind, first.payload
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the connection")
            self.buffer += chunk

    def message(self) -> Message:
        kind, payload = self.frame()
        if kind == wire.Kind.EM:
            raise ConnectionError(f"EM 0x{struct.unpack('>H', payload)[0]:02X}")
        assert kind == wire.Kind.DM, kind
        message = decode(payload)
        self.seen.append(message)
        return message

    def expect(self, head: str) -> Message:
        """The next message starting with ``head`` (others are kept in ``seen``)."""
        for _ in range(200):
            message = self.message()
            if message and message[0] == head:
                return message
        raise AssertionError(f"no {head} in {[format_message(m) for m in self.seen[-20:]]}")

    def answer(self, text: str) -> Message:
        """Send ``text`` and return the next message the server sends."""
        self.send(text)
        return self.message()

    def close(self) -> None:
        try:
            self._write(wire.Frame(wire.Kind.FM))
        finally:
            self.sock.close()
