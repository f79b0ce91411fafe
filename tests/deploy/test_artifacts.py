"""The Lambda artifacts hold the product and its runtime dependencies, nothing else (issue 27 item 1)."""

from __future__ import annotations

import re
import tomllib

from deploy import build_artifacts
from deploy.build_artifacts import FUNCTIONS, LOCK, ROOT
from deploy.rehearsal import built_artifacts
from local_stack.template import load_template

NEVER_SHIPPED = (
    "tests",
    "docs",
    "web",
    "bench",
    "local_stack",
    "daide_bridge",
    "deploy",
    ".venv",
    "node_modules",
)


def test_the_function_table_is_the_templates() -> None:
    template = load_template()
    functions = {
        name: r["Properties"]["Handler"]
        for name, r in template["Resources"].items()
        if r["Type"] == "AWS::Serverless::Function"
    }
    assert functions == build_artifacts.HANDLERS
    assert {name: handler.rpartition(".")[0] for name, handler in functions.items()} == FUNCTIONS
    runtime = template["Globals"]["Function"]
    assert (runtime["Runtime"], runtime["Architectures"]) == ("python3.12", ["arm64"])
    assert build_artifacts.Target("3.12", "aarch64") == build_artifacts.SHIPPED


def test_the_lock_pins_every_runtime_dependency_as_pyproject_does() -> None:
    pins = dict(
        line.split("==") for line in LOCK.read_text().splitlines() if line and not line.startswith("#")
    )
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for requirement in project["dependencies"]:
        pinned = re.match(r"([A-Za-z0-9_.-]+)(?:\[[^]]*\])?==(\S+)", requirement)
        assert pinned is not None, f"{requirement} is not pinned with =="
        name, version = pinned.groups()
        assert pins.get(build_artifacts.normalize(name)) == version, requirement
    dev = project["optional-dependencies"]["dev"] + project["optional-dependencies"]["bench"]
    for requirement in dev:  # no test or bench tool ships
        assert build_artifacts.normalize(re.split(r"[\[=]", requirement)[0]) not in pins, requirement


def test_artifacts_hold_no_tests_docs_web_bench_or_virtualenvs() -> None:
    for function, artifact in built_artifacts().items():
        top = {p.name for p in artifact.iterdir()}
        assert not top & set(NEVER_SHIPPED), (function, sorted(top & set(NEVER_SHIPPED)))
        assert {"functions", "infra", "engine"} <= top, function
        assert not any(p.suffix in (".ts", ".tsx", ".md") for p in (artifact / "functions").rglob("*"))


def test_only_the_api_ships_what_only_it_needs() -> None:
    api, relay = (
        build_artifacts.closure(FUNCTIONS["ApiFunction"]),
        build_artifacts.closure(FUNCTIONS["RelayFunction"]),
    )
    assert "functions.api.handler" in api.modules and "functions.api.handler" not in relay.modules
    assert "composition.api" in api.modules and "composition.relay" in relay.modules
    assert "pydantic" in api.third_party


# The heavy libraries and the functions that use them (the composition root is split by area so
# that each entry point reaches only its own: composition/factories/). A library appearing in
# another function's artifact is an import that reaches too far; one missing from a function that
# needs it fails the rehearsal (tests/deploy/test_rehearsal.py runs each artifact alone).
USED_BY: dict[str, set[str]] = {
    "PIL": {"ApiFunction", "NotifierFunction"},  # the renderer: map pictures, the mailed turn map
    "resvg": {"ApiFunction", "NotifierFunction"},
    "pywebpush": {"ApiFunction", "NotifierFunction"},  # the API sends a test push
    "jwt": {"ApiFunction", "LiveFunction"},  # ID tokens are verified there
    "openskill": {"ApiFunction", "NotifierFunction"},  # ratings: the API reads, a finished game writes
    "pydantic": {"ApiFunction", "LiveFunction"},  # request and frame schemas
}


def test_each_function_ships_only_the_libraries_it_uses() -> None:
    shipped = {
        library: {f for f in FUNCTIONS if library in build_artifacts.closure(FUNCTIONS[f]).third_party}
        for library in USED_BY
    }
    assert shipped == USED_BY


def test_a_product_import_that_is_no_runtime_dependency_fails_the_build() -> None:
    import pytest

    with pytest.raises(SystemExit, match="not a runtime dependency"):
        build_artifacts.requirements_for({"hypothesis"})
