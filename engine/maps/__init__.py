"""Map data files and their validating loader."""

from engine.maps.loader import (
    EdgeRules,
    EmergencyMeasures,
    MapData,
    MapDataError,
    Power,
    Province,
    available_maps,
    build_map,
    load_map,
)

__all__ = [
    "EdgeRules", "EmergencyMeasures", "MapData", "MapDataError", "Power", "Province",
    "available_maps", "build_map", "load_map",
]
