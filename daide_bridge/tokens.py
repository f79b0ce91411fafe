"""DAIDE language tokens: names, two-octet values, and the standard map's provinces.

Values follow "The Diplomacy AIJudge Client-Server Protocol", version 1 revision 13
(Andrew Rose, 2003), chapter 4 "Language Representation": a token is two octets, the
category in the high octet and the number within it in the low one. Integers are the
categories 0x00-0x3F (a 14-bit two's-complement value); a text token (category 0x4B)
carries one ASCII character. Where "DAIDE Message Syntax" (David Norman, the language
document the protocol refers to) later changed the table, this module follows it: ``SMR``
(0x481E, the game summary, after ``ADM``) and the press category (0x4A, ``PRESS`` below:
FCT FOR FWD in that order, 0x4A22 CHO, no WRT). Standard library only; no I/O.
"""

from __future__ import annotations

from typing import Final

INTEGER_LIMIT: Final = 8192  # integers are -8192 .. 8191
TEXT_CATEGORY: Final = 0x4B

_CATEGORIES: Final[dict[int, str]] = {
    0x40: "BRA KET",
    0x41: "AUS ENG FRA GER ITA RUS TUR",
    0x42: "AMY FLT",
    0x44: "MBV BPR CST ESC FAR HSC NAS NMB NMR NRN NRS NSA NSC NSF NSP NST NSU NVR NYU YSC",
    0x45: "SUC BNC CUT DSR FLD NSO RET",
    0x47: "SPR SUM FAL AUT WIN",
    0x48: "CCD DRW FRM GOF HLO HST HUH IAM LOD MAP MDF MIS NME NOT NOW OBS OFF ORD OUT PRN REJ "
    "SCO SLO SND SUB SVE THX TME YES ADM SMR",
    0x49: "AOA BTL ERR LVL MRT MTL NPB NPR PDA PTL RTL UNO",
}
# Categories whose numbers are not simply 0, 1, 2, ...
_SPARSE: Final[dict[str, int]] = {
    # orders (0x43): the high three bits say in which phase an order is valid
    "CTO": 0x4320,
    "CVY": 0x4321,
    "HLD": 0x4322,
    "MTO": 0x4323,
    "SUP": 0x4324,
    "VIA": 0x4325,
    "DSB": 0x4340,
    "RTO": 0x4341,
    "BLD": 0x4380,
    "REM": 0x4381,
    "WVE": 0x4382,
    # coasts (0x46)
    "NCS": 0x4600,
    "NEC": 0x4602,
    "ECS": 0x4604,
    "SEC": 0x4606,
    "SCS": 0x4608,
    "SWC": 0x460A,
    "WCS": 0x460C,
    "NWC": 0x460E,
    "DSD": 0x490D,  # a parameter after a gap in the table
}
# Press (0x4A), as "DAIDE Message Syntax" lists them (David Norman, dpp_syntax, 2006), which is
# what DAIDE software sends: David Norman's AI Client (Token.h), MILA's diplomacy 1.1.2
# (diplomacy/daide/tokens.py). Revision 13 of the Client-Server Protocol listed FWD FCT FOR
# (0x06-0x08), IOU, PPT, UOM and WRT at 0x4A22; the syntax document orders FCT FOR FWD, drops
# IOU/PPT/UOM (their numbers stay unused) and gives 0x4A22-0x4A24 to CHO, BCC and UNT. NAR and
# CCL, later additions whose numbers differ between implementations, are not in it.
_PRESS_NUMBERS: Final = (  # "-": a number left unused
    "ALY AND BWX DMZ ELS EXP FCT FOR FWD HOW IDK IFF INS - OCC ORR PCE POB - PRP QRY SCD SRY "
    "SUG THK THN TRY - VSS WHT WHY XDO XOY YDO CHO BCC UNT"
)
PRESS: Final[dict[str, int]] = {
    name: 0x4A00 | number for number, name in enumerate(_PRESS_NUMBERS.split()) if name != "-"
}
# The standard map's provinces (0x50-0x57): the low octet numbers them 0..74 in this order;
# the category says inland/sea/coastal/bicoastal and (low bit) supply centre.
PROVINCE_GROUPS: Final[tuple[tuple[int, str], ...]] = (
    (0x50, "BOH BUR GAL RUH SIL TYR UKR"),
    (0x51, "BUD MOS MUN PAR SER VIE WAR"),
    (0x52, "ADR AEG BAL BAR BLA EAS ECH GOB GOL HEL ION IRI MAO NAO NTH NWG SKA TYS WES"),
    (0x54, "ALB APU ARM CLY FIN GAS LVN NAF PIC PIE PRU SYR TUS WAL YOR"),
    (0x55, "ANK BEL BER BRE CON DEN EDI GRE HOL KIE LON LVP MAR NAP NWY POR ROM RUM SEV SMY SWE TRI TUN VEN"),
    (0x57, "BUL SPA STP"),
)


def _table() -> dict[str, int]:
    table: dict[str, int] = {}
    for category, names in _CATEGORIES.items():
        for number, name in enumerate(names.split()):
            table[name] = category << 8 | number
    table.update(_SPARSE)
    table.update(PRESS)
    number = 0
    for category, names in PROVINCE_GROUPS:
        for name in names.split():
            table[name] = category << 8 | number
            number += 1
    return table


VALUES: Final[dict[str, int]] = _table()
NAMES: Final[dict[int, str]] = {value: name for name, value in VALUES.items()}
PROVINCES: Final[tuple[str, ...]] = tuple(n for _, names in PROVINCE_GROUPS for n in names.split())
POWERS: Final[tuple[str, ...]] = tuple(_CATEGORIES[0x41].split())
COASTS: Final[tuple[str, ...]] = ("NCS", "NEC", "ECS", "SEC", "SCS", "SWC", "WCS", "NWC")


def category(value: int) -> int:
    return value >> 8


def is_integer(value: int) -> bool:
    return category(value) < 0x40


def is_text(value: int) -> bool:
    return category(value) == TEXT_CATEGORY


def is_province(value: int) -> bool:
    return 0x50 <= category(value) <= 0x57


def is_supply_centre(name: str) -> bool:
    return name in VALUES and is_province(VALUES[name]) and bool(category(VALUES[name]) & 1)


def integer_value(value: int) -> int:
    """The integer a token in 0x0000-0x3FFF stands for (14-bit two's complement)."""
    return value - 0x4000 if value & 0x2000 else value


def integer_token(number: int) -> int:
    if not -INTEGER_LIMIT <= number < INTEGER_LIMIT:
        raise ValueError(f"{number} is outside DAIDE's integers ({-INTEGER_LIMIT}..{INTEGER_LIMIT - 1})")
    return number & 0x3FFF
