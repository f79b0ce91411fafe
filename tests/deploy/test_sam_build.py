"""`sam build` works on a machine without Docker and makes the artifacts deploy/build_artifacts.py
describes (issue 27 item 1): arm64 wheels for python3.12, only what each handler reaches.

It runs the SAM CLI of `make sam` (.venv-sam) into a temporary build directory; a minute or two,
most of it installing wheels (they are downloaded once, into build/wheels/).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from deploy.build_artifacts import FUNCTIONS, ROOT

SAM = ROOT / ".venv-sam" / "bin" / "sam"
NEVER_SHIPPED = (
    "tests",
    "docs",
    "web",
    "bench",
    "local_stack",
    "daide_bridge",
    "deploy",
    ".venv",
    ".venv-tools",
)
AARCH64 = 183  # ELF e_machine of a shared object built for arm64 (x86-64 is 62)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not SAM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{SAM} is missing: `make sam` installs it")
        pytest.skip(f"{SAM} is missing: `make sam` installs it")
    out = tmp_path_factory.mktemp("sam") / "build"
    env = {**os.environ, "SAM_CLI_TELEMETRY": "0", "DOCKER_HOST": "unix:///nonexistent.sock"}
    said = subprocess.run(
        [str(SAM), "build", "--build-dir", str(out)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    assert said.returncode == 0, said.stdout[-3000:] + said.stderr[-3000:]
    return out


def test_sam_builds_every_function_without_docker(built: Path) -> None:
    assert sorted(p.name for p in built.iterdir() if p.is_dir()) == sorted(FUNCTIONS)
    assert (built / "template.yaml").is_file()


def test_the_built_artifacts_are_arm64_python312_and_hold_only_the_product(built: Path) -> None:
    for function in FUNCTIONS:
        artifact = built / function
        top = {p.name for p in artifact.iterdir()}
        assert not top & set(NEVER_SHIPPED), (function, sorted(top & set(NEVER_SHIPPED)))
        native = list(artifact.rglob("*.so"))
        assert native, function
        machines = {p.name: int.from_bytes(p.read_bytes()[18:20], "little") for p in native}
        assert set(machines.values()) == {AARCH64}, (function, machines)
        assert not [p for p in native if "cpython-3" in p.name and "cpython-312" not in p.name], function
        handler = FUNCTIONS[function].replace(".", "/") + ".py"
        assert (artifact / handler).is_file(), function
