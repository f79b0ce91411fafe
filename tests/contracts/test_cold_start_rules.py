"""The cold-start rules of docs/performance.md ("Keeping cold starts low", issue 9 item 6),
checked structurally, not by timing: importing a Lambda handler defines things and does
nothing else, and pulls in no library that only some requests need."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HANDLERS = ("functions.api.handler", "functions.deadline.handler", "functions.notifier.handler",
            "functions.relay.handler", "functions.telegram.handler")
# Imported only by the code that needs them, never by a handler's import: AWS SDK machinery
# (DynamoDB, SSM and SQS go through the small clients of infra/aws_json.py, other services
# build botocore clients on first use), token verification, rendering, the second game, and
# any part of the engine behind its lazy facade (engine/__init__.py: a module-level
# ``engine.Season.SPRING`` loads it), and pydantic: the API's models are read on first use
# (functions/api/lazy_module.py), by the requests that validate a body or a query.
NOT_AT_IMPORT = ("boto3", "botocore.session", "botocore.client", "urllib3", "requests", "jwt",
                 "cryptography", "render", "backgammon", "pydantic", "pydantic_core")
ENGINE_PARTS = "engine."

PROBE = """
import json, sys, importlib
importlib.import_module(sys.argv[1])
imported = sorted(sys.modules)
import pydantic
models = [c for m in list(sys.modules.values()) if getattr(m, "__name__", "").startswith("functions")
          for c in vars(m).values()
          if isinstance(c, type) and issubclass(c, pydantic.BaseModel) and c.__module__ == m.__name__]
ours = [c for m in list(sys.modules.values()) if getattr(m, "__name__", "").startswith(("functions", "infra"))
        for c in vars(m).values() if isinstance(c, type) and c.__module__ == m.__name__]
print(json.dumps({
    "modules": imported,
    "built": sorted(c.__qualname__ for c in models if c.__pydantic_complete__),
    "models": len(models),
    "dataclasses": sorted([c.__qualname__, c.__dataclass_params__.frozen] for c in ours
                          if "__dataclass_fields__" in vars(c)),
}))
"""


def _imported(module: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PROBE, module], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, check=True)
    found: dict[str, object] = json.loads(done.stdout)
    return found


@pytest.mark.parametrize("module", HANDLERS)
def test_a_handler_s_import_pulls_in_nothing_only_some_requests_need(module: str) -> None:
    modules = set(_imported(module)["modules"])  # type: ignore[arg-type]
    below = tuple(f"{name}." for name in NOT_AT_IMPORT)
    assert not [m for m in modules if m in NOT_AT_IMPORT or m.startswith(below)]
    assert not [m for m in modules if m.startswith(ENGINE_PARTS)]


def test_schema_modules_give_pydantic_real_annotations() -> None:
    """A string annotation (``from __future__ import annotations``) makes pydantic compile
    and eval every field's type when the model class is defined, at every cold import."""
    modules = sorted((ROOT / "functions" / "schemas").glob("*.py"))
    assert modules
    future = re.compile(r"^from __future__ import annotations", re.MULTILINE)
    assert [m.name for m in modules if future.search(m.read_text())] == []


def test_the_api_s_import_loads_no_route_group_it_mounts() -> None:
    """The account and sandbox routes are mounted (functions/api/router.py ``mount``): declared
    when a request first reaches their prefix, never by the handler's import."""
    modules = set(_imported("functions.api.handler")["modules"])  # type: ignore[arg-type]
    mounted = {"functions.api.auth_routes", "functions.api.sandbox_routes", "functions.schemas.accounts",
               "functions.schemas.sandbox", "functions.usecases.sandbox", "functions.usecases.accounts"}
    assert sorted(modules & mounted) == []


def test_the_lazy_ports_are_exported_and_the_api_s_import_loads_none() -> None:
    """functions/ports/__init__.py ``LAZY`` names every public name of its submodules, each
    importable from ``functions.ports``; a cold API import loads neither submodule."""
    import importlib

    from functions import ports

    for module, names in ports.LAZY.items():
        source = importlib.import_module(module)
        public = {n for n, v in vars(source).items() if not n.startswith("_")
                  and getattr(v, "__module__", module) == module and n.isidentifier()
                  and (isinstance(v, type) or callable(v))}
        assert public <= set(names) and all(getattr(ports, n) is getattr(source, n) for n in names)
    modules = set(_imported("functions.api.handler")["modules"])  # type: ignore[arg-type]
    assert sorted(m for m in modules if m.startswith("functions.ports.")) == []


def test_the_other_routes_bodies_are_exported_lazily_and_not_defined_by_the_api_s_import() -> None:
    """functions/schemas/api.py ``LAZY`` names every model of functions/schemas/bodies.py; a
    cold API import defines only the view's models."""
    import importlib

    from functions.schemas import api

    for module, names in api.LAZY.items():
        source = importlib.import_module(module)
        models = {n for n, v in vars(source).items() if isinstance(v, type) and v.__module__ == module}
        assert models == set(names) and all(getattr(api, n) is getattr(source, n) for n in models)
    modules = set(_imported("functions.api.handler")["modules"])  # type: ignore[arg-type]
    assert sorted(modules & set(api.LAZY)) == []


def test_botocore_s_exceptions_are_looked_up_only_when_an_error_happens() -> None:
    """infra/aws_errors.py: ``except aws_errors.ClientError`` imports botocore only when an
    exception reaches it; a module-level ``from botocore.exceptions import ...`` would make
    every function's first request import botocore."""
    import ast

    eager = []
    for path in sorted([*(ROOT / "infra").rglob("*.py"), *(ROOT / "functions").rglob("*.py")]):
        for node in ast.parse(path.read_text()).body:  # module level only
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("botocore"):
                eager.append(str(path.relative_to(ROOT)))
            if isinstance(node, ast.Import) and any(a.name.startswith("botocore") for a in node.names):
                eager.append(str(path.relative_to(ROOT)))
    assert eager == []


def test_pydantic_s_plugin_scan_is_switched_off_where_the_functions_run() -> None:
    """Convoy uses no pydantic plugin; pydantic's loader would scan every installed package's
    entry points on the first model built (docs/performance.md, "Cold start")."""
    from local_stack.template import load_template

    variables = load_template()["Globals"]["Function"]["Environment"]["Variables"]
    assert variables["PYDANTIC_DISABLE_PLUGINS"] == "__all__"
    source = (ROOT / "local_stack" / "stack.py").read_text()
    assert 'os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")' in source


def test_no_api_model_builds_its_validator_at_import() -> None:
    """Models inherit ``functions.schemas.api.BaseModel`` (``defer_build``): each is built on
    first use, so the first request with a body builds its own model, not the view's ~15. A
    model or ``TypeAdapter`` built at import also loads pydantic's plugin loader."""
    found = _imported("functions.schemas.api")
    assert found["models"] and found["built"] == []
    assert "pydantic.plugin._loader" not in found["modules"]  # type: ignore[operator]


VIEW_PROBE = """
import json, sys
from functions.usecases.create_game import CreateGame
from functions.usecases.kind_registry import kind_named
from tests.api.harness import in_process_api
harness = in_process_api()
api = next(harness)
created = kind_named("diplomacy").create(api.store, api.clock, CreateGame())
before = "pydantic" in sys.modules
view = api.call("GET", f"/games/{created.game_id}", token=created.token)
after_view = "pydantic" in sys.modules
orders = api.call("GET", f"/games/{created.game_id}/orders_status", token=created.token)
print(json.dumps({"before": before, "view": [view.status, after_view, "units" in view.body],
                  "orders": [orders.status, "pydantic" in sys.modules]}))
"""


def test_a_player_s_view_runs_without_pydantic_and_a_validated_route_loads_it() -> None:
    """A player's view validates no body and no query, so neither the API's import nor the
    view's first request imports pydantic (issue 9 item 6); the view is held to its model by
    tests/contracts/test_view_schema.py. A route whose answer is a model loads it then."""
    done = subprocess.run([sys.executable, "-c", VIEW_PROBE], capture_output=True, text=True, cwd=ROOT,
                          timeout=120, check=True)
    found = json.loads(done.stdout.splitlines()[-1])
    assert found == {"before": False, "view": [200, False, True], "orders": [200, True]}


def test_the_api_names_pydantic_s_error_class_as_pydantic_defines_it() -> None:
    """functions/api/handler.py maps pydantic's ValidationError to 422 by its name, so that its
    import need not load pydantic: the name must be the class's."""
    import pydantic

    from functions.api import handler

    error = pydantic.ValidationError
    assert f"{error.__module__}.{error.__qualname__}" == handler.PYDANTIC_VALIDATION_ERROR


# The mutable records: changed in place (GameRecord, PowerPress) or by tests (Services).
MUTABLE_RECORDS = {"GameRecord", "PowerPress", "Services"}


def test_the_api_s_import_defines_no_frozen_dataclass() -> None:
    """Immutable values on the API's import path are ``NamedTuple``s (``_replace``, ``_asdict``),
    a router record a plain class: on Python 3.11 a frozen dataclass compiles six generated
    methods when it is defined, ~1 ms of every cold start apiece, a NamedTuple one (issue 9;
    docs/performance.md rule 11). Dataclasses are left for the mutable records."""
    found = _imported("functions.api.handler")["dataclasses"]
    assert [name for name, frozen in found if frozen] == []  # type: ignore[union-attr]
    assert {name for name, _ in found} <= MUTABLE_RECORDS  # type: ignore[union-attr]


# What a player's view runs (functions/usecases/views.py and what it reads): every other use
# case is imported by the routes that call it (rule 5), never by the API's import.
VIEW_USE_CASES = {"common", "deadline_grid", "views", "ballots", "order_entry", "results", "roster",
                  "press", "press_rules", "game_kinds", "kind_registry"}


def test_the_api_s_import_loads_only_the_use_cases_a_view_runs() -> None:
    """Creating a game, casting a vote, the deadlines' schedules, backgammon: loaded by the
    routes that need them, so neither the import nor a view's first request pays for them."""
    modules = set(_imported("functions.api.handler")["modules"])  # type: ignore[arg-type]
    loaded = {m.removeprefix("functions.usecases.") for m in modules if m.startswith("functions.usecases.")}
    assert sorted(loaded - VIEW_USE_CASES) == []


COLLECTOR_PROBE = """
import gc, sys
gc.disable() if sys.argv[1] == "off" else gc.enable()
import functions.api.handler
print(gc.isenabled(), gc.get_freeze_count() > 0)
"""


@pytest.mark.parametrize("before", ["on", "off"])
def test_the_api_s_import_pauses_the_collector_and_leaves_it_as_it_was(before: str) -> None:
    """functions/api/handler.py pauses the cyclic collector while its modules load and
    freezes what they built (docs/performance.md rule 12); it never turns a collector on
    that someone else had turned off."""
    done = subprocess.run([sys.executable, "-c", COLLECTOR_PROBE, before], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=True)
    assert done.stdout.split() == [str(before == "on"), "True"]

