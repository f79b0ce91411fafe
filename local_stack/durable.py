"""The local stack's data directory: moto's state survives a restart, and a kill -9 too.

Design (issue 9 item 3): a *snapshot* of moto's backends (the DynamoDB tables with
their stream records, the SQS queues with their messages, in-flight ones included,
and the Scheduler's schedules) plus an append-only *journal* of every AWS request
that changed them since that snapshot. Start = load the newest snapshot and replay
the journal. Why this design:

- Write cost stays independent of data size: a request appends one record to an
  in-memory buffer (under the emulator's lock, so journal order = order of effect);
  a background thread writes and fsyncs the buffer every ``FLUSH_SECONDS``. A kill -9
  loses at most the last second of writes.
- Restart cost stays bounded: when the journal passes ``COMPACT_BYTES``, and at every
  clean stop and start, the state is written as a new snapshot and the journal
  restarts empty. (Taking the snapshot holds the emulator's lock for as long as
  pickling the backends takes; that pause is O(data) but happens once per
  ``COMPACT_BYTES`` of writes, not per write.)
- Never corrupt: a snapshot is written to a temporary file, fsynced and renamed over
  (atomic on POSIX); each journal record carries its length and CRC-32, so a torn
  tail from a crash is recognised and cut off at the last whole record. Files are
  numbered by generation: ``snapshot-N`` holds the state at the start of
  ``journal-N``; start loads the highest valid snapshot and replays every journal
  numbered at or above it, so a crash at any step of a compaction loses nothing.
- Replay is deterministic: moto draws message ids and receipt handles from its own
  seedable random generator and SQS times from ``moto.core.utils.utcnow``; each
  journal record carries the seed and the clock it ran with, and both are applied
  again when it is replayed.

A lock file (``flock``) keeps two servers off one directory. Snapshots are Python
pickles of moto 5.2.5's objects: written and read only by this program, and tied to
the pinned moto version (a different version refuses to load them, see ``load``).
"""

from __future__ import annotations

import copyreg
import fcntl
import io
import json
import logging
import os
import pickle
import struct
import threading
import zlib
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from local_stack import moto_patches
from local_stack.backends import ACCOUNT, REGION, backend_dicts, dynamodb_backend
from local_stack.patching import replace

log = logging.getLogger("convoy.local.durable")
FLUSH_SECONDS = 1.0
COMPACT_BYTES = 32 * 1024 * 1024
MAGIC = b"CONVOY-SNAPSHOT-1\n"
HEADER = struct.Struct(">II")  # record length, CRC-32 of the record
# Requests that never change moto's state: not journaled.
READS = {
    "GetItem", "BatchGetItem", "Query", "Scan", "DescribeTable", "ListTables", "DescribeTimeToLive",
    "TransactGetItems", "DescribeContinuousBackups", "ListTagsOfResource", "DescribeEndpoints",
    "DescribeLimits", "GetQueueUrl", "GetQueueAttributes", "ListQueues", "ListQueueTags",
    "ListDeadLetterSourceQueues", "DescribeStream", "GetShardIterator", "GetRecords", "ListStreams",
    "ListUserPools", "ListUserPoolClients", "DescribeUserPool", "DescribeUserPoolClient", "GetUser",
    "AdminGetUser",
}

_frozen: list[datetime] = []
_real_utcnow: Callable[[], datetime] | None = None


def _install_clock() -> None:
    """Route moto's ``utcnow`` through a clock that a journal record can pin."""
    global _real_utcnow
    import moto.core.utils as utils

    if _real_utcnow is not None:
        return
    _real_utcnow = utils.utcnow
    real = _real_utcnow

    def utcnow() -> datetime:
        return _frozen[-1] if _frozen else real()

    replace(utils, "utcnow", utcnow)


def _run_pinned(seed: int, at: float, call: Callable[[], Any]) -> Any:
    from moto.moto_api._internal import mock_random

    mock_random.seed(seed)
    _frozen.append(datetime.fromtimestamp(at, UTC).replace(tzinfo=None))
    try:
        return call()
    finally:
        _frozen.pop()


def _dump_state() -> bytes:
    """Pickle the backends (SQS queues hold a Condition: it is rebuilt empty; a user pool's signing
    key is moto's packaged one: it is loaded again)."""
    import moto

    state = {name: backends[ACCOUNT][REGION] for name, backends in backend_dicts().items()}
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    from joserfc.jwk import RSAKey

    from local_stack.user_pool import moto_signing_key

    rebuild = {threading.Condition: lambda _: (threading.Condition, ()),
               RSAKey: lambda _: (moto_signing_key, ())}  # the user pools' key (user_pool.py)
    pickler.dispatch_table = {**copyreg.dispatch_table, **rebuild}
    pickler.dump({"moto": moto.__version__, "state": state})
    return buffer.getvalue()


def _request_name(environ: dict[str, Any]) -> str:
    target = environ.get("HTTP_X_AMZ_TARGET", "")
    return target.rpartition(".")[2] if target else ""


def _mutates(environ: dict[str, Any]) -> bool:
    name = _request_name(environ)
    if name:
        return name not in READS
    return environ.get("REQUEST_METHOD", "GET") not in ("GET", "HEAD")


def _changed_nothing(environ: dict[str, Any], status: str, body: bytes) -> bool:
    """An empty ReceiveMessage (the notifier's idle poll) changes no state: skip it."""
    if _request_name(environ) != "ReceiveMessage" or not status.startswith("200"):
        return False
    try:
        return not json.loads(body or b"{}").get("Messages")
    except ValueError:
        return False


def _replayable(environ: dict[str, Any], body: bytes) -> dict[str, Any]:
    headers = {key: value for key, value in environ.items()
               if key.startswith("HTTP_") or key in ("CONTENT_TYPE", "CONTENT_LENGTH")}
    return {"method": environ.get("REQUEST_METHOD", "GET"), "path": environ.get("PATH_INFO", "/"),
            "query": environ.get("QUERY_STRING", ""), "headers": headers, "body": body}


def _environ(request: dict[str, Any]) -> dict[str, Any]:
    environ: dict[str, Any] = {
        "REQUEST_METHOD": request["method"], "PATH_INFO": request["path"], "SCRIPT_NAME": "",
        "QUERY_STRING": request["query"], "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "0",
        "SERVER_PROTOCOL": "HTTP/1.1", "REMOTE_ADDR": "127.0.0.1", "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(request["body"]), "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False, "wsgi.multiprocess": False, "wsgi.run_once": False,
    }
    environ.update(request["headers"])
    return environ


def _records(path: Path) -> tuple[list[Any], int]:
    """The whole records of a journal file and the byte length they span (a torn tail is not)."""
    data = path.read_bytes()
    records: list[Any] = []
    offset = 0
    while offset + HEADER.size <= len(data):
        length, crc = HEADER.unpack_from(data, offset)
        payload = data[offset + HEADER.size: offset + HEADER.size + length]
        if len(payload) < length or zlib.crc32(payload) != crc:
            break
        records.append(pickle.loads(payload))
        offset += HEADER.size + length
    return records, offset


class DurableState:
    """Snapshot + journal in ``directory``; plugged into the emulator's request dispatch."""

    def __init__(self, directory: Path | str, *, fresh: bool = False,
                 flush_seconds: float = FLUSH_SECONDS, compact_bytes: int = COMPACT_BYTES) -> None:
        self.directory = Path(directory)
        self.fresh = fresh
        self.flush_seconds = flush_seconds
        self.compact_bytes = compact_bytes
        self.replayed = 0
        self._generation = 0
        self._buffer = bytearray()
        self._buffer_lock = threading.Lock()
        self._file: Any = None
        self._journal_bytes = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock_file: Any = None
        self._emulator_lock: threading.Lock | None = None

    # ------------------------------------------------------------------ start
    def load(self, app: Any) -> None:
        """Before the emulator serves: restore the newest snapshot and replay the journals."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self._lock_file = (self.directory / "lock").open("a")
        try:
            fcntl.flock(self._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RuntimeError(f"another Convoy server is using {self.directory}") from None
        _install_clock()
        moto_patches.apply()
        for stale in self.directory.glob("*.tmp"):  # a snapshot a crash left half written
            stale.unlink()
        if self.fresh:
            for old in self._files("snapshot") + self._files("journal"):
                old.unlink()
        snapshots = [(gen, path) for gen, path in self._numbered("snapshot")]
        base = 0
        if snapshots:
            base, path = snapshots[-1]
            self._restore(path)
        for gen, path in self._numbered("journal"):
            if gen >= base:
                self._replay(app, path)
        self._generation = max([base, *(g for g, _ in self._numbered("journal"))])

    def start(self, emulator_lock: threading.Lock) -> None:
        """Once the emulator serves: compact what was loaded, then flush every second."""
        self._emulator_lock = emulator_lock
        self.compact()
        self._thread = threading.Thread(target=self._flush_loop, name="convoy-journal", daemon=True)
        self._thread.start()

    def _restore(self, path: Path) -> None:
        data = path.read_bytes()
        if not data.startswith(MAGIC):
            raise RuntimeError(f"{path} is not a Convoy snapshot")
        length, crc = HEADER.unpack_from(data, len(MAGIC))
        payload = data[len(MAGIC) + HEADER.size:]
        if len(payload) != length or zlib.crc32(payload) != crc:
            raise RuntimeError(f"{path} is damaged (checksum); refusing to start on it")
        loaded = pickle.loads(payload)
        import moto

        if loaded["moto"] != moto.__version__:
            raise RuntimeError(f"{path} was written by moto {loaded['moto']}, this is {moto.__version__}")
        for name, backends in backend_dicts().items():
            backends[ACCOUNT][REGION] = loaded["state"][name]

    def _replay(self, app: Any, path: Path) -> None:
        records, good = _records(path)
        if good < path.stat().st_size:
            log.warning("%s: cutting a torn tail of %d bytes", path, path.stat().st_size - good)
            with path.open("r+b") as handle:
                handle.truncate(good)
        for record in records:
            self._apply(app, record)
        self.replayed += len(records)

    def _apply(self, app: Any, record: dict[str, Any]) -> None:
        if record["kind"] == "trim":
            moto_patches.trim_stream(dynamodb_backend(), record["table"], record["upto"])
            return
        environ = _environ(record["request"])
        _run_pinned(record["seed"], record["at"], lambda: list(app(environ, lambda *_: None)))

    # ------------------------------------------------------------------ writes
    def dispatch(self, app: Any, environ: dict[str, Any], body: bytes, start_response: Any) -> list[bytes]:
        """Run one moto request (the caller holds the emulator's lock); journal it if it wrote."""
        if not _mutates(environ):
            return list(app(environ, start_response))
        seed, at = int.from_bytes(os.urandom(8), "big"), datetime.now(UTC).timestamp()
        request = _replayable(environ, body)
        status: list[str] = []

        def capture(code: str, headers: Any, *rest: Any) -> Any:
            status.append(code)
            return start_response(code, headers, *rest)

        result: list[bytes] = _run_pinned(seed, at, lambda: list(app(environ, capture)))
        if not _changed_nothing(environ, status[0] if status else "", b"".join(result)):
            self._append({"kind": "request", "seed": seed, "at": at, "request": request})
        return result

    def record_trim(self, table: str, upto: int) -> None:
        """Journal a stream trim (the caller holds the emulator's lock)."""
        self._append({"kind": "trim", "table": table, "upto": upto})

    def _append(self, record: dict[str, Any]) -> None:
        payload = pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL)
        with self._buffer_lock:
            self._buffer += HEADER.pack(len(payload), zlib.crc32(payload)) + payload

    # ------------------------------------------------------------------ background
    def _flush_loop(self) -> None:
        while not self._stop.wait(self.flush_seconds):
            try:
                self.flush()
                if self._journal_bytes > self.compact_bytes:
                    self.compact()
            except Exception:  # keep serving; the next round tries again
                log.exception("journal flush failed")

    def flush(self) -> None:
        """Write and fsync what the buffer holds."""
        with self._buffer_lock:
            data, self._buffer = bytes(self._buffer), bytearray()
            handle = self._file
        if data and handle is not None:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
            self._journal_bytes += len(data)

    def compact(self) -> None:
        """Snapshot the state, start a new journal, then drop the files it replaces."""
        assert self._emulator_lock is not None
        with self._emulator_lock:
            self.flush()
            state = _dump_state()
            old_generation = self._generation
            self._generation += 1
            new_journal = (self._path("journal", self._generation)).open("ab")
            with self._buffer_lock:
                old_file, self._file = self._file, new_journal
            self._journal_bytes = 0
        if old_file is not None:
            old_file.close()
        self._write_snapshot(state, self._generation)
        for kind in ("snapshot", "journal"):
            for gen, path in self._numbered(kind):
                if gen <= old_generation:
                    path.unlink()

    def _write_snapshot(self, state: bytes, generation: int) -> None:
        final = self._path("snapshot", generation)
        temporary = final.with_suffix(".tmp")
        with temporary.open("wb") as handle:
            handle.write(MAGIC + HEADER.pack(len(state), zlib.crc32(state)) + state)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, final)
        directory = os.open(self.directory, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)

    def close(self, emulator_lock: threading.Lock) -> None:
        """Clean stop: final snapshot (so the next start replays nothing), release the directory."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._emulator_lock = emulator_lock
            self.compact()
            with self._buffer_lock:
                handle, self._file = self._file, None
            if handle is not None:
                handle.close()
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None

    # ------------------------------------------------------------------ files
    def _path(self, kind: str, generation: int) -> Path:
        return self.directory / f"{kind}-{generation:08d}.{'bin' if kind == 'snapshot' else 'log'}"

    def _files(self, kind: str) -> list[Path]:
        return sorted(self.directory.glob(f"{kind}-*"))

    def _numbered(self, kind: str) -> list[tuple[int, Path]]:
        found = []
        for path in self._files(kind):
            stem = path.name.split("-", 1)[1].split(".", 1)[0]
            if stem.isdigit() and path.suffix in (".bin", ".log"):
                found.append((int(stem), path))
        return sorted(found)
