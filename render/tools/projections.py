"""Map projections for the geometry author (render/tools/author_geometry.py): where a
(longitude, latitude) goes on the board, and back. Authoring-time only (needs numpy)."""

from __future__ import annotations

import math

import numpy as np


class Projection:
    """Lambert conformal conic on a unit sphere (standard parallels ``phi1``, ``phi2``, central
    meridian ``lam0``) with a gentle fisheye around ``fish`` (lon, lat): crowded places get
    more room (as on every Diplomacy board), the edges give it up. r' = r(1+K)/(1+K r/R).
    ``lcc=False`` replaces the cone by a plate carree scaled at ``phi1`` (a whole-world board)."""

    def __init__(
        self,
        phi1: float = 40.0,
        phi2: float = 62.0,
        lam0: float = 15.0,
        lat0: float = 50.0,
        fish: tuple[float, float] = (8.0, 49.5),
        k: float = 0.6,
        r: float = 0.55,
        lcc: bool = True,
    ) -> None:
        self.lcc = lcc
        self.phi1, self.lam0 = math.radians(phi1), math.radians(lam0)
        p1, p2 = self.phi1, math.radians(phi2)
        self.n = (
            math.log(math.cos(p1) / math.cos(p2))
            / math.log(math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2))
            if lcc
            else 1.0
        )
        self.f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** self.n / self.n
        self.rho0 = self.f / math.tan(math.pi / 4 + math.radians(lat0) / 2) ** self.n
        self.k, self.r = k, r
        self.centre = self._base(*fish)

    def _base(self, lon: float, lat: float) -> tuple[float, float]:
        if not self.lcc:
            return (math.radians(lon) - self.lam0) * math.cos(self.phi1), math.radians(lat)
        rho = self.f / math.tan(math.pi / 4 + math.radians(lat) / 2) ** self.n
        theta = self.n * (math.radians(lon) - self.lam0)
        return rho * math.sin(theta), self.rho0 - rho * math.cos(theta)

    def project(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = self._base(lon, lat)
        dx, dy = x - self.centre[0], y - self.centre[1]
        f = (1 + self.k) / (1 + self.k * math.hypot(dx, dy) / self.r)
        return self.centre[0] + dx * f, self.centre[1] + dy * f

    def unproject(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        dx, dy = x - self.centre[0], y - self.centre[1]
        g = 1.0 / (1 + self.k - self.k * np.hypot(dx, dy) / self.r)
        x, y = self.centre[0] + dx * g, self.centre[1] + dy * g
        if not self.lcc:
            return np.degrees(x / math.cos(self.phi1) + self.lam0), np.degrees(y)
        n = self.n
        rho = np.sign(n) * np.sqrt(x**2 + (self.rho0 - y) ** 2)
        theta = np.arctan2(x, self.rho0 - y)
        lat = 2 * np.arctan((self.f / rho) ** (1 / n)) - math.pi / 2
        lon = self.lam0 + theta / n
        return np.degrees(lon), np.degrees(lat)


class Warp:
    """A plate carree stretched piece by piece: ``lons`` and ``lats`` are knots (degree, board
    position) of two increasing piecewise-linear maps, so each band of longitude and latitude
    gets the room its provinces need (a board from Europe to Japan cannot be one fisheye).
    Separable and monotone, hence exactly invertible; shared borders stay shared."""

    def __init__(self, lons: list[tuple[float, float]], lats: list[tuple[float, float]]) -> None:
        self.lon_deg, self.lon_pos = (np.array(v, dtype=float) for v in zip(*lons, strict=True))
        self.lat_deg, self.lat_pos = (np.array(v, dtype=float) for v in zip(*lats, strict=True))

    def project(self, lon: float, lat: float) -> tuple[float, float]:
        x = float(np.interp(lon, self.lon_deg, self.lon_pos))
        return x, float(np.interp(lat, self.lat_deg, self.lat_pos))

    def unproject(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.interp(x, self.lon_pos, self.lon_deg), np.interp(y, self.lat_pos, self.lat_deg)
