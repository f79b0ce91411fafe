"""Which variants the DAIDE bridge plays (issue 35 item 4: "DAIDE where the map fits DAIDE's
tokens, say which do not"). The bridge speaks DAIDE's standard map only (``MAP ('STANDARD')``,
no variant tokens), so a game fits when its map is the classical map; the starting position
may differ, since bots read it from NOW and SCO (DAIDE Message Syntax, MDF/NOW)."""

from __future__ import annotations

import pytest

import engine
from daide_bridge.board import fits_standard, map_definition

FITS = {"classical", "fleet_rome"}


@pytest.mark.parametrize("variant", engine.available_maps())
def test_only_maps_of_the_standard_board_fit(variant: str) -> None:
    assert fits_standard(variant) is (variant in FITS)


def test_an_unknown_variant_does_not_fit() -> None:
    assert not fits_standard("narnia")


def test_fleet_rome_has_the_standard_map_definition() -> None:
    assert map_definition("fleet_rome") == map_definition("classical")
