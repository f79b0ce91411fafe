"""The data directory's files (issue 9 item 3): a torn journal tail is cut at the last whole
record, a damaged snapshot is refused rather than half-loaded. (Whole restarts, SIGTERM and
kill -9, are in tests/system/test_restart.py.)"""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from local_stack import durable
from local_stack.durable import HEADER, MAGIC, DurableState, _records


def _journal(path: Path, count: int) -> DurableState:
    state = DurableState(path.parent)
    state._file = path.open("ab")
    for n in range(count):
        state.record_trim("games", n)
    state.flush()
    state._file.close()
    return state


def test_a_torn_journal_tail_is_cut_at_the_last_whole_record(tmp_path: Path) -> None:
    path = tmp_path / "journal-00000001.log"
    _journal(path, 3)
    whole = path.stat().st_size
    with path.open("ab") as handle:  # a crash in the middle of the next write
        handle.write(HEADER.pack(500, 123) + b"partial")
    records, good = _records(path)
    assert [r["upto"] for r in records] == [0, 1, 2] and good == whole


def test_a_record_with_a_bad_checksum_ends_the_replay(tmp_path: Path) -> None:
    path = tmp_path / "journal-00000001.log"
    _journal(path, 3)
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF  # flip a bit of the last record
    path.write_bytes(bytes(data))
    records, _ = _records(path)
    assert [r["upto"] for r in records] == [0, 1]


def test_a_damaged_snapshot_is_refused(tmp_path: Path) -> None:
    payload = b"not really a pickle but checksummed"
    path = tmp_path / "snapshot-00000001.bin"
    path.write_bytes(MAGIC + HEADER.pack(len(payload), zlib.crc32(payload) ^ 1) + payload)
    with pytest.raises(RuntimeError, match="damaged"):
        DurableState(tmp_path)._restore(path)
    path.write_bytes(b"something else")
    with pytest.raises(RuntimeError, match="not a Convoy snapshot"):
        DurableState(tmp_path)._restore(path)


def test_only_writes_are_journaled() -> None:
    def environ(target: str, method: str = "POST") -> dict[str, str]:
        found = {"REQUEST_METHOD": method}
        return {**found, "HTTP_X_AMZ_TARGET": target} if target else found

    assert durable._mutates(environ("DynamoDB_20120810.TransactWriteItems"))
    assert durable._mutates(environ("AmazonSQS.DeleteMessage"))
    assert not durable._mutates(environ("DynamoDB_20120810.Query"))
    assert not durable._mutates(environ("DynamoDBStreams_20120810.GetRecords"))
    assert durable._mutates(environ("", "DELETE"))  # the Scheduler's REST API
    assert not durable._mutates(environ("", "GET"))
    empty = environ("AmazonSQS.ReceiveMessage")
    assert durable._changed_nothing(empty, "200 OK", b"{}")
    assert not durable._changed_nothing(empty, "200 OK", b'{"Messages": [{"MessageId": "m"}]}')


def test_another_server_cannot_share_the_directory(tmp_path: Path) -> None:
    first = DurableState(tmp_path)
    first._lock_file = (tmp_path / "lock").open("a")
    import fcntl

    fcntl.flock(first._lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    with pytest.raises(RuntimeError, match="another Convoy server"):
        DurableState(tmp_path).load(app=None)
    first._lock_file.close()


