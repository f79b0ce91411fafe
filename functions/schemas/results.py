"""How a resolution's results are written in every answer that carries them (issue 31).

``last_resolution``, ``history``, ``process_turn``'s answer and the sandbox's ``/adjudicate``
all carry the engine's results (``engine.resolution_to_dict``): beside ``result`` each has a
``reason`` (a code of a closed set) and an ``explanation`` (the decision that settled the
order, the strengths it compared, the units on each side, and the same in English). A
resolution also carries ``notes``: what the phase sequence did that no order asked for (a
unit disbanded at once, a phase in which nobody could order, skipped). The closed sets of
codes are the engine's (engine/reasons.py); schemas may not import the engine
(tests/contracts/test_boundaries.py), so they are listed in docs/rules.md, and
tests/engine/test_reason_codes_documented.py checks that list against the engine.
Phases stored before explanations existed have ``explanation`` null.
"""

from pydantic import Field

from functions.schemas.common import BaseModel

CODES = "docs/rules.md, 'Why an order ended as it did'"


class ReasonBody(BaseModel):
    code: str = Field(description=f"Why the order ended as it did; a closed set ({CODES}).")
    units: list[str] = Field(description="Provinces of the units responsible, sorted.")
    detail: str


class CutSupport(BaseModel):
    unit: str = Field(description="The province of the supporting unit.")
    by: list[str] = Field(description="The provinces of the units whose attacks cut it.")


class StrengthBody(BaseModel):
    kind: str = Field(description="Kruijswijk's strength (DATC section 5): ATTACK, HOLD, DEFEND, PREVENT.")
    unit: str = Field(description="The province of the unit whose strength it is (HOLD: the province held).")
    value: float = Field(description="In units of one army; a variant's half-strength edge gives halves.")
    supporters: list[str] = Field(description="Supports that counted.")
    cut: list[CutSupport] = Field(description="Supports given but cut, with who cut them.")
    excluded: list[str] = Field(
        description="Supports given by the power whose unit is attacked: they never help dislodge it.")


class ExplanationBody(BaseModel):
    decision: str = Field(description=f"The decision that settled the order; a closed set ({CODES}).")
    strengths: list[StrengthBody] = Field(description="The strengths that decision compared, in order.")
    units: dict[str, list[str]] = Field(
        description=f"Provinces of the units on each side, by role ({CODES}).")
    text: str = Field(description="The same in English, made from the fields above.")


class PhaseNoteBody(BaseModel):
    kind: str = Field(description="DISBANDED (dislodged with nowhere to retreat) or PHASE_SKIPPED.")
    phase: str = Field(description="The phase the note is about (one that was never opened).")
    powers: list[str]
    units: list[str]
    text: str
