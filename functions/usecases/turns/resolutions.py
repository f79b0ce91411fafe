"""A phase's resolution as Convoy stores and answers it: the engine's, with each result's power
and order text (``resolution_view``), and the shorter copy the event log and exports carry
(``without_explanations``)."""

from __future__ import annotations

from typing import Any

import engine


def resolution_view(resolution: engine.Resolution) -> dict[str, Any]:
    """``resolution_to_dict`` plus, per result, ``power`` and ``order_str`` (seed §4); each
    result's ``reason`` and ``explanation`` and the resolution's ``notes`` as the engine
    wrote them (issue 31)."""
    data = engine.resolution_to_dict(resolution)
    results = data.get("results", [])
    for entry, result in zip(results, resolution.results, strict=False):
        entry["power"] = result.order.power
        entry["order_str"] = engine.format_order(result.order)
    return {"results": results, "notes": data.get("notes", [])}


def without_explanations(resolution: dict[str, Any]) -> dict[str, Any]:
    """``resolution`` with each result's ``explanation`` left out: what the event log and an
    export carry. The PHASE item keeps the explanations (``/history``, ``/last_resolution``);
    the log says what happened (results and reason codes) at half the size, and a turn's write
    stays within its budget (issue 29: about 4 write units a turn for a second copy)."""
    if "results" not in resolution:
        return dict(resolution)
    results = [{k: v for k, v in r.items() if k != "explanation"} for r in resolution["results"]]
    return {**resolution, "results": results}
