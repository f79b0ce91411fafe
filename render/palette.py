"""Colours of the board: powers, results, terrain; a standard and a colour-blind-safe palette.

The standard palette follows the colours players know from the boxed game (England dark blue,
France light blue, Germany grey, Italy green, Austria red, Russia purple-white, Turkey yellow).
The colour-blind-safe one uses the Okabe-Ito set (distinguishable under the common forms of
colour blindness) and the drawing adds what colour alone would carry: each unit shows its power's
initial, and a failed order is dashed as well as coloured.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from engine import ResultCode


@dataclass(frozen=True)
class Palette:
    name: str
    powers: Mapping[str, str]
    results: Mapping[ResultCode, str]
    land: str = "#efe6cf"
    sea: str = "#b9d3e6"
    neutral_land: str = "#d8d2c0"
    neutral_water: str = "#cddfec"
    border: str = "#6b6353"
    text: str = "#2b2b2b"
    sea_text: str = "#335a7a"
    standoff: str = "#c0392b"
    initials: bool = False

    def power(self, power: str) -> str:
        return self.powers.get(power, "#888888")

    def for_powers(self, power_ids: tuple[str, ...]) -> Palette:
        """This palette with a colour for every power of a map: the named ones keep theirs,
        the others take the first ``EXTRA`` colours no named power of the map uses, in the
        map's order (a variant's powers are not all in the boxed game's seven)."""
        key = (self.name, power_ids)
        known = _FOR_POWERS.get(key)
        if known is None:
            taken = {self.powers[p] for p in power_ids if p in self.powers}
            spare = iter(c for c in (_CB_EXTRA if self.initials else _EXTRA) if c not in taken)
            colours = {p: self.powers.get(p) or next(spare, "#888888") for p in power_ids}
            known = replace(self, powers=MappingProxyType({**self.powers, **colours}))
            _FOR_POWERS[key] = known
        return known


_STANDARD_POWERS = MappingProxyType(
    {
        "AUSTRIA": "#d2332f",
        "ENGLAND": "#2a3f8f",
        "BRITAIN": "#2a3f8f",
        "FRANCE": "#3fa7e0",
        "GERMANY": "#5b5b5b",
        "ITALY": "#3a9a3a",
        "RUSSIA": "#8e5fb5",
        "TURKEY": "#e8c21a",
    }
)

_CB_POWERS = MappingProxyType(
    {
        "AUSTRIA": "#d55e00",  # vermillion
        "ENGLAND": "#0072b2",  # blue
        "BRITAIN": "#0072b2",
        "FRANCE": "#56b4e9",  # sky blue
        "GERMANY": "#444444",  # near black
        "ITALY": "#009e73",  # bluish green
        "RUSSIA": "#cc79a7",  # reddish purple
        "TURKEY": "#f0e442",  # yellow
    }
)

_STANDARD_RESULTS = MappingProxyType(
    {
        ResultCode.OK: "#1e8c3a",
        ResultCode.BOUNCE: "#e67e22",
        ResultCode.CUT: "#8e44ad",
        ResultCode.VOID: "#8a8a8a",
        ResultCode.NO_CONVOY: "#8b5a2b",
        ResultCode.DISLODGED: "#c0392b",
        ResultCode.DISBAND: "#7b1010",
        ResultCode.BUILD: "#1e8c3a",
        ResultCode.WAIVE: "#8a8a8a",
    }
)

_CB_RESULTS = MappingProxyType(
    {
        ResultCode.OK: "#009e73",
        ResultCode.BOUNCE: "#e69f00",
        ResultCode.CUT: "#cc79a7",
        ResultCode.VOID: "#999999",
        ResultCode.NO_CONVOY: "#8b5a2b",
        ResultCode.DISLODGED: "#d55e00",
        ResultCode.DISBAND: "#000000",
        ResultCode.BUILD: "#0072b2",
        ResultCode.WAIVE: "#999999",
    }
)

# Colours for powers beyond the seven (and Britain): distinct hues first, then their darker and
# lighter variants, enough for Chaos' 34 powers. The colour-blind list starts with the rest of
# the Okabe-Ito set; past a dozen powers no palette stays safe, and the initials carry the power.
_EXTRA = (
    "#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#bfef45",
    "#469990", "#9a6324", "#800000", "#808000", "#000075", "#fabed4", "#dcbeff", "#aaffc3",
    "#ffd8b1", "#a9a9a9", "#ffe119", "#b8860b", "#2f4f4f", "#ff7f50", "#6b8e23", "#c71585",
    "#1e90ff", "#8b4513", "#20b2aa", "#ff1493", "#556b2f", "#9370db", "#cd5c5c", "#00ced1",
    "#daa520", "#708090", "#adff2f", "#ba55d3", "#f4a460", "#4682b4", "#d2691e", "#7b68ee",
)
_CB_EXTRA = ("#e69f00", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#56b4e9", *_EXTRA)
_FOR_POWERS: dict[tuple[str, tuple[str, ...]], Palette] = {}

STANDARD = Palette(name="standard", powers=_STANDARD_POWERS, results=_STANDARD_RESULTS)
COLORBLIND = Palette(name="colorblind", powers=_CB_POWERS, results=_CB_RESULTS, initials=True)
PALETTES: Mapping[str, Palette] = MappingProxyType({p.name: p for p in (STANDARD, COLORBLIND)})

# What each result is called in the legend.
RESULT_WORDS: Mapping[ResultCode, str] = MappingProxyType(
    {
        ResultCode.OK: "succeeded",
        ResultCode.BOUNCE: "bounced",
        ResultCode.CUT: "support cut",
        ResultCode.VOID: "void",
        ResultCode.NO_CONVOY: "no convoy",
        ResultCode.DISLODGED: "dislodged",
        ResultCode.DISBAND: "disbanded",
        ResultCode.BUILD: "built",
        ResultCode.WAIVE: "waived",
    }
)


def tint(colour: str, amount: float) -> str:
    """``colour`` mixed with white: 0 keeps it, 1 is white (for owned-territory shading)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)
