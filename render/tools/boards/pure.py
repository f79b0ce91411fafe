"""Pure: the seven capitals, each adjacent to every other; the rest of Europe is split between
them by distance over land, and the pairs that cannot touch (six of them are on one continent,
London is across the sea) get drawn crossings."""

from render.tools.boards import BoardConfig

BOARD = BoardConfig(
    seeds={
        "LON": [(-0.1, 51.5)],
        "PAR": [(2.35, 48.85), (-1.5, 46.5)],
        "BER": [(13.4, 52.5), (9.5, 51.0)],
        "VIE": [(16.4, 48.2)],
        "ROM": [(12.5, 41.9), (11.0, 44.0)],
        "MOS": [(37.6, 55.75), (28.0, 54.0)],
        "CON": [(28.97, 41.01), (24.0, 42.0)],
    },
    extent=[(-11.0, 60.0), (-10.0, 36.0), (42.0, 62.0), (40.0, 37.0)],
    cols=420,
    islands={"LON": [(-1.5, 53.0), (-4.0, 56.5)]},
)
