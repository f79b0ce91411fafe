"""Orders for every power in Spring and Fall 1901 (classical), shared by use-case and system tests."""

from __future__ import annotations

SPRING_1901: dict[str, list[str]] = {
    "AUSTRIA": ["A VIE - GAL", "A BUD - SER", "F TRI - ALB"],
    "ENGLAND": ["F LON - NTH", "F EDI - NWG", "A LVP - YOR"],
    "FRANCE": ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"],
    "GERMANY": ["A BER - KIE", "A MUN - RUH", "F KIE - DEN"],
    "ITALY": ["A VEN - PIE", "A ROM - APU", "F NAP - ION"],
    "RUSSIA": ["A MOS - UKR", "A WAR - GAL", "F SEV - BLA", "F STP/SC - BOT"],
    "TURKEY": ["A CON - BUL", "A SMY - CON", "F ANK - BLA"],
}

FALL_1901: dict[str, list[str]] = {
    "AUSTRIA": ["A SER S F ALB - GRE", "F ALB - GRE", "A VIE - TRI"],
    "ENGLAND": ["F NWG - NWY", "F NTH S F NWG - NWY", "A YOR H"],
    "FRANCE": ["A BUR H", "A SPA H", "F MAO - POR"],
    "GERMANY": ["F DEN H", "A KIE - HOL", "A RUH - BEL"],
    "ITALY": ["A PIE H", "A APU - TUN", "F ION C A APU - TUN"],
    "RUSSIA": ["A UKR - RUM", "A WAR H", "F SEV H", "F BOT - SWE"],
    "TURKEY": ["A BUL H", "A CON H", "F ANK H"],
}

# Where each of these units stands after Fall 1901 (all moves succeed).
AFTER_1901 = {
    "GRE": "AUSTRIA", "NWY": "ENGLAND", "POR": "FRANCE", "SPA": "FRANCE",
    "HOL": "GERMANY", "BEL": "GERMANY", "DEN": "GERMANY", "TUN": "ITALY",
    "RUM": "RUSSIA", "SWE": "RUSSIA", "SER": "AUSTRIA", "BUL": "TURKEY",
}
