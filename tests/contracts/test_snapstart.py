"""SnapStart (issue 27 item 5; shared/ARCHITECTURE.md §8): a handler's import defines things and
registers its priming; the priming runs before the snapshot; after a restore what is unique per
environment is renewed. Checked in fresh interpreters, with the hooks run as the runtime would."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from functions import snapstart

ROOT = Path(__file__).resolve().parents[2]
HANDLERS = ("composition.api", "composition.deadline", "composition.notifier",
            "composition.relay", "composition.telegram")

PROBE = """
import json, sys, importlib, os
os.environ.setdefault("AWS_REGION", "us-east-1")
importlib.import_module(sys.argv[1])
from functions import snapstart
from infra import aws_clients
print(json.dumps({"before": len(snapstart.HOOKS["before_snapshot"]),
                  "after": len(snapstart.HOOKS["after_restore"]),
                  "clients_at_import": sorted(aws_clients._clients)}))
"""


@pytest.mark.parametrize("module", HANDLERS)
def test_a_handler_registers_its_priming_and_builds_no_client_at_import(module: str) -> None:
    said = subprocess.run([sys.executable, "-c", PROBE, module], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, check=False)
    assert said.returncode == 0, said.stderr
    found = json.loads(said.stdout.splitlines()[-1])
    assert found["before"] >= 1 and found["after"] >= 1, found
    assert found["clients_at_import"] == [], "clients belong in the priming hook, not the import"


def test_priming_runs_each_warm_up_and_survives_a_failing_one() -> None:
    ran: list[str] = []
    before = len(snapstart.HOOKS["before_snapshot"])

    def fails() -> None:
        raise RuntimeError("no network at snapshot time")

    snapstart.prime(lambda: ran.append("one"), fails, lambda: ran.append("two"))
    hook = snapstart.HOOKS["before_snapshot"][before]
    hook()
    assert ran == ["one", "two"]


def test_a_restore_reseeds_random_and_runs_the_renewals() -> None:
    renewed: list[bool] = []
    snapstart.prime(renew=(lambda: renewed.append(True),))
    random.seed(7)
    snapshot_value = random.random()
    random.seed(7)  # every environment restored from one snapshot starts with this state
    snapstart.HOOKS["after_restore"][-1]()
    assert random.random() != snapshot_value
    assert renewed == [True]


def test_the_engine_warm_up_runs() -> None:
    snapstart.warm_engine()  # raises if an engine call it makes changed shape
