"""Author the board geometry (render/geometry/<map>.json) from real geography. Run by hand.

    python -m render.tools.author_geometry classical 1900

Authoring-time only: it needs numpy, scipy, shapely and global-land-mask (a 1 km land/sea mask of
the public-domain NOAA GLOBE data set, MIT-licensed package) in a scratch virtualenv; the runtime
renderer reads only the JSON it writes and never imports this module.

How a board is made:
1. Project the board's extent with a Lambert conformal conic (standard parallels 40N and 62N,
   so Scandinavia and North Africa keep their familiar shapes) onto a square grid, and sample the
   land mask at each cell centre. Specks of land or water smaller than a few cells are dropped.
2. Grow every land province from its seed points (render/tools/seeds.py) over land, nearest
   first, and then every sea over water. A cell is taken only if every neighbour it already
   touches belongs to a province the map says is adjacent (land-land: any edge; land-sea and
   sea-sea: a fleet edge), and inland provinces never reach the sea. So the picture can never
   show a border the adjacency graph does not have; what no province may take stays neutral
   ground or neutral water.
3. Trace each region into polygons, simplify all of them together with a topology-preserving
   coverage simplification (shared borders stay shared), and place the unit, label, supply-
   centre and coast anchors at the points farthest from the borders and from each other.
"""

from __future__ import annotations

import heapq
import json
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import shapely
import shapely.affinity
import shapely.ops
from global_land_mask import globe
from scipy import ndimage

from render.tools import boards
from render.tools import seeds as S

ROOT = Path(__file__).resolve().parents[2]
WIDTH = 1000.0
NEUTRAL_LAND = -1
NEUTRAL_WATER = -2
UNSET = -3


class Grid:
    """The board's cells: projected extent, cell size, and the land mask."""

    def __init__(self, map_id: str) -> None:
        config = boards.board(map_id)
        self.projection = config.projection
        pts = [self.projection.project(lo, la) for lo, la in config.extent]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        self.x0, self.x1, self.y0, self.y1 = min(xs), max(xs), min(ys), max(ys)
        self.cols = config.cols
        self.cell = (self.x1 - self.x0) / self.cols
        self.rows = int(math.ceil((self.y1 - self.y0) / self.cell))
        cx = self.x0 + (np.arange(self.cols) + 0.5) * self.cell
        cy = self.y1 - (np.arange(self.rows) + 0.5) * self.cell
        gx, gy = np.meshgrid(cx, cy)
        lon, lat = self.projection.unproject(gx, gy)
        lon, lat = (lon + 180.0) % 360.0 - 180.0, np.clip(lat, -90.0, 90.0)  # a world board's edges
        land = globe.is_land(lat, lon)
        for ring in config.water:  # below-sea-level seas the land mask counts as land (the Caspian)
            land &= ~shapely.contains_xy(shapely.Polygon(ring), lon, lat)
        land = _drop_specks(land, 6)
        land = ~_drop_specks(~land, 6)
        self.land = land

    def cell_of(self, lon: float, lat: float) -> tuple[int, int]:
        x, y = self.projection.project(lon, lat)
        c = int((x - self.x0) / self.cell)
        r = int((self.y1 - y) / self.cell)
        return min(max(r, 0), self.rows - 1), min(max(c, 0), self.cols - 1)


def _drop_specks(mask: np.ndarray, min_cells: int) -> np.ndarray:
    labels, count = ndimage.label(mask)
    sizes = ndimage.sum(mask, labels, range(1, count + 1))
    small = np.isin(labels, np.nonzero(sizes < min_cells)[0] + 1)
    return mask & ~small


class Board:
    """The map's provinces and the touching rules the picture must obey."""

    def __init__(self, map_id: str) -> None:
        data = json.loads((ROOT / "engine" / "maps" / f"{map_id}.json").read_text())
        self.map_id = map_id
        self.data = data
        self.ids = [p["id"] for p in data["provinces"]]
        self.kind = {p["id"]: p["kind"] for p in data["provinces"]}
        self.coasts = {p["id"]: p["coasts"] for p in data["provinces"]}
        self.sc = {p["id"]: p["supply_center"] for p in data["provinces"]}
        self.touch: dict[str, set[str]] = defaultdict(set)
        self.coast_neighbours: dict[tuple[str, str], set[str]] = defaultdict(set)
        for e in data["edges"]:
            a, b = e["from"], e["to"]
            water = self.kind[a] == "sea" or self.kind[b] == "sea"
            if not water or e["fleet"]:
                self.touch[a].add(b)
                self.touch[b].add(a)
            if e["from_coast"]:
                self.coast_neighbours[(a, e["from_coast"])].add(b)
            if e["to_coast"]:
                self.coast_neighbours[(b, e["to_coast"])].add(a)


def grow(grid: Grid, board: Board, seeds: dict[str, list[S.Point]]) -> np.ndarray:
    """Assign every cell to a province, neutral ground or neutral water (see module doc)."""
    labels = np.full((grid.rows, grid.cols), UNSET, dtype=np.int32)
    index = {pid: i for i, pid in enumerate(board.ids)}
    water_seeded = _seeded_water(grid, board, seeds)
    allowed = [set() for _ in board.ids]
    for pid, others in board.touch.items():
        allowed[index[pid]] = {index[o] for o in others}
    neutral_seeds = {NEUTRAL_LAND: boards.board(board.map_id).neutral_land}
    land_ids = [p for p in board.ids if board.kind[p] != "sea"]
    sea_ids = [p for p in board.ids if board.kind[p] == "sea"]
    land_seeds = {index[p]: seeds[p] for p in land_ids} | neutral_seeds
    _dijkstra(grid, labels, land_seeds, grid.land, allowed, board, water_seeded, False)
    _islands(grid, labels, board, index)
    labels[(labels == UNSET) & grid.land] = NEUTRAL_LAND
    _dijkstra(grid, labels, {index[p]: seeds[p] for p in sea_ids}, ~grid.land, allowed, board, None, True)
    labels[labels == UNSET] = NEUTRAL_WATER
    return labels


def _seeded_water(grid: Grid, board: Board, seeds: dict[str, list[S.Point]]) -> np.ndarray:
    comps, _ = ndimage.label(~grid.land)
    ids = {comps[grid.cell_of(*pt)] for p in board.ids if board.kind[p] == "sea" for pt in seeds[p]}
    ids.discard(0)
    return np.isin(comps, list(ids))


NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))
STEPS = (
    (-1, 0, 1.0),
    (1, 0, 1.0),
    (0, -1, 1.0),
    (0, 1, 1.0),
    (-1, -1, 1.414),
    (-1, 1, 1.414),
    (1, -1, 1.414),
    (1, 1, 1.414),
)


def _dijkstra(
    grid: Grid,
    labels: np.ndarray,
    seeds: dict[int, list[S.Point]],
    domain: np.ndarray,
    allowed: list[set[int]],
    board: Board,
    sea: np.ndarray | None,
    water: bool,
) -> None:
    heap: list[tuple[float, int, int, int]] = []
    for pid, pts in sorted(seeds.items()):
        for lon, lat in pts:
            r, c = grid.cell_of(lon, lat)
            if not domain[r, c]:
                print(
                    f"BADSEED {board.ids[pid] if pid >= 0 else pid} {lon},{lat} not on "
                    f"{'water' if water else 'land'}"
                )
                continue
            heapq.heappush(heap, (0.0, pid, r, c))
    rows, cols = grid.rows, grid.cols
    inland = {i for i, p in enumerate(board.ids) if board.kind[p] == "land"}
    while heap:
        d, pid, r, c = heapq.heappop(heap)
        if labels[r, c] != UNSET:
            continue
        if not _may_take(labels, r, c, pid, allowed, rows, cols):
            continue
        if pid in inland and sea is not None and _near(sea, r, c, rows, cols):
            continue
        labels[r, c] = pid
        for dr, dc, step in STEPS:
            rr, cc = r + dr, c + dc
            if not (0 <= rr < rows and 0 <= cc < cols and domain[rr, cc] and labels[rr, cc] == UNSET):
                continue
            if dr and dc and not (domain[r, cc] or domain[rr, c]):
                continue  # never jump a strait diagonally
            heapq.heappush(heap, (d + step, pid, rr, cc))


def _may_take(
    labels: np.ndarray, r: int, c: int, pid: int, allowed: list[set[int]], rows: int, cols: int
) -> bool:
    if pid < 0:
        return True
    for dr, dc in NEIGHBOURS:
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols:
            other = int(labels[rr, cc])
            if other >= 0 and other != pid and other not in allowed[pid]:
                return False
    return True


def _near(mask: np.ndarray, r: int, c: int, rows: int, cols: int) -> bool:
    for dr, dc in NEIGHBOURS:
        rr, cc = r + dr, c + dc
        if 0 <= rr < rows and 0 <= cc < cols and mask[rr, cc]:
            return True
    return False


def _islands(grid: Grid, labels: np.ndarray, board: Board, index: dict[str, int]) -> None:
    comps, _ = ndimage.label(grid.land & (labels == UNSET))
    for pid, pts in boards.board(board.map_id).islands.items():
        for lon, lat in pts:
            comp = comps[grid.cell_of(lon, lat)]
            if comp:
                labels[comps == comp] = index[pid]


# ---------------------------------------------------------------- polygons and anchors


def polygons(labels: np.ndarray, scale: float) -> dict[int, Any]:
    """Trace the label grid into polygons whose shared borders are drawn from the same line.

    Every cell edge between two labels (and the board's frame) becomes a unit segment; merged,
    these are chains between the points where three regions meet. Each chain is simplified
    once, so both neighbours get the very same border; the faces of the simplified line work
    are then given the label of the cell under them.
    """
    rows, cols = labels.shape
    segs: list[tuple[tuple[int, int], tuple[int, int]]] = []
    vert = np.nonzero(labels[:, 1:] != labels[:, :-1])
    segs += [((c + 1, r), (c + 1, r + 1)) for r, c in zip(*vert, strict=True)]
    horiz = np.nonzero(labels[1:, :] != labels[:-1, :])
    segs += [((c, r + 1), (c + 1, r + 1)) for r, c in zip(*horiz, strict=True)]
    segs += [((c, 0), (c + 1, 0)) for c in range(cols)] + [((c, rows), (c + 1, rows)) for c in range(cols)]
    segs += [((0, r), (0, r + 1)) for r in range(rows)] + [((cols, r), (cols, r + 1)) for r in range(rows)]
    merged = shapely.line_merge(shapely.MultiLineString(segs))
    chains = list(merged.geoms) if hasattr(merged, "geoms") else [merged]
    simple = _simplify_chains(chains, 0.9)
    faces = shapely.get_parts(shapely.polygonize(simple))
    groups: dict[int, list[Any]] = defaultdict(list)
    for face in faces:
        groups[_face_label(face, labels)].append(face)
    return {
        k: shapely.affinity.scale(shapely.MultiPolygon(v), xfact=scale, yfact=scale, origin=(0, 0))
        for k, v in groups.items()
    }


def _simplify_chains(chains: list[Any], tolerance: float) -> list[Any]:
    """Simplify each chain; a chain whose simplified form would cross another (or itself)
    keeps its exact grid course. Repeats until no two chains cross."""
    simple = [shapely.simplify(ch, tolerance, preserve_topology=True) for ch in chains]
    while True:
        tree = shapely.STRtree(simple)
        left, right = tree.query(simple, predicate="intersects")
        bad = set()
        for i, j in zip(left.tolist(), right.tolist(), strict=True):
            if i < j and not shapely.touches(simple[i], simple[j]):
                bad.update((i, j))
        bad.update(
            i
            for i, ch in enumerate(simple)
            if not ch.is_simple or len(ch.coords) < (4 if ch.is_closed else 2)
        )
        bad = {i for i in bad if simple[i] is not chains[i]}
        if not bad:
            return simple
        for i in bad:
            simple[i] = chains[i]


def _face_label(face: Any, labels: np.ndarray) -> int:
    """The label of most cell centres inside the face (its representative point if none)."""
    x0, y0, x1, y1 = face.bounds
    c0, r0 = max(int(x0), 0), max(int(y0), 0)
    c1, r1 = min(int(math.ceil(x1)), labels.shape[1]), min(int(math.ceil(y1)), labels.shape[0])
    rr, cc = np.mgrid[r0:r1, c0:c1]
    inside = shapely.contains_xy(face, cc + 0.5, rr + 0.5)
    if not inside.any():
        pt = face.representative_point()
        return int(labels[min(int(pt.y), labels.shape[0] - 1), min(int(pt.x), labels.shape[1] - 1)])
    values, counts = np.unique(labels[r0:r1, c0:c1][inside], return_counts=True)
    return int(values[int(np.argmax(counts))])


def rings(geom: Any) -> list[list[list[float]]]:
    polys = sorted(geom.geoms, key=lambda p: -p.area)
    out = []
    for poly in polys:
        for ring in [poly.exterior, *poly.interiors]:
            pts = [[round(x, 1), round(y, 1)] for x, y in ring.coords[:-1]]
            if len(pts) >= 3:
                out.append(pts)
    return out


def _far_point(
    mask: np.ndarray, avoid: list[tuple[float, float, float]], scale: float, within: np.ndarray | None = None
) -> tuple[float, float]:
    """The cell of ``mask`` farthest from its border and from the discs in ``avoid`` (pixel units)."""
    comps, count = ndimage.label(mask)
    if count > 1:
        sizes = ndimage.sum(mask, comps, range(1, count + 1))
        mask = comps == (int(np.argmax(sizes)) + 1)
    free = np.pad(mask, 1)
    dist = ndimage.distance_transform_edt(free)[1:-1, 1:-1]
    rr, cc = np.mgrid[0 : mask.shape[0], 0 : mask.shape[1]]
    px, py = (cc + 0.5) * scale, (rr + 0.5) * scale
    for ax, ay, rad in avoid:
        gap = np.hypot(px - ax, py - ay) - rad
        dist = np.minimum(dist, np.maximum(gap / scale, 0.0))
    flat = int(np.argmax(np.where(mask if within is None else within, dist, -1)))
    r, c = divmod(flat, mask.shape[1])
    return round(float(px[r, c]), 1), round(float(py[r, c]), 1)


def _centre_point(
    mask: np.ndarray, unit: tuple[float, float], label: tuple[float, float], scale: float
) -> tuple[float, float]:
    """The supply-centre marker: beside the unit (13-24 units away), clear of unit and label."""
    rr, cc = np.mgrid[0 : mask.shape[0], 0 : mask.shape[1]]
    gap = np.hypot((cc + 0.5) * scale - unit[0], (rr + 0.5) * scale - unit[1])
    ring = mask & (gap >= 13.0) & (gap <= 24.0)
    if ring.sum() >= 4:
        return _far_point(mask, [(unit[0], unit[1], 12.0), (label[0], label[1], 13.0)], scale, within=ring)
    return _far_point(mask, [(unit[0], unit[1], 12.0), (label[0], label[1], 13.0)], scale)


def anchors(
    labels: np.ndarray, board: Board, scale: float, label_at: dict[str, tuple[float, float]]
) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    index = {pid: i for i, pid in enumerate(board.ids)}
    for pid in board.ids:
        mask = labels == index[pid]
        unit = _far_point(mask, [], scale)
        # a label is ~20 units wide and a glyph ~22: keep their centres ~20 apart
        label = label_at.get(pid) or _far_point(mask, [(unit[0], unit[1], 20.0)], scale)
        entry: dict[str, Any] = {"unit": list(unit), "label": list(label)}
        if board.sc[pid]:
            entry["supply_center"] = list(_centre_point(mask, unit, label, scale))
        coasts = {}
        for coast in board.coasts[pid]:
            coasts[coast] = list(_coast_point(labels, mask, board, index, pid, coast, scale))
        if coasts:
            entry["coasts"] = coasts
        out[pid] = entry
    return out


def _coast_point(
    labels: np.ndarray,
    mask: np.ndarray,
    board: Board,
    index: dict[str, int],
    pid: str,
    coast: str,
    scale: float,
) -> tuple[float, float]:
    """A point on the province's shore along the waters reached from this coast."""
    seas = {index[n] for n in board.coast_neighbours[(pid, coast)] if board.kind[n] == "sea"}
    water = np.isin(labels, list(seas))
    shore = mask & ndimage.binary_dilation(water, iterations=2)
    if not shore.any():
        raise SystemExit(f"{pid}/{coast} touches none of its seas")
    # where two coasts share a sea (Spain's north and west coasts both face the Mid-Atlantic),
    # keep the stretch of shore nearest what only this coast reaches (Gascony, Gibraltar...)
    others = set().union(*(board.coast_neighbours[(pid, c)] for c in board.coasts[pid] if c != coast))
    own = board.coast_neighbours[(pid, coast)] - others
    land = sorted(n for n in board.coast_neighbours[(pid, coast)] if board.kind[n] != "sea")
    if own:
        near = ndimage.distance_transform_edt(~np.isin(labels, [index[n] for n in own]))
    elif land:  # no neighbour of its own (1900's west coast): the shore between its land neighbours
        near = sum(ndimage.distance_transform_edt(labels != index[n]) for n in land)
    if own or land:
        shore &= near <= near[shore].min() + 25
    rr, cc = np.nonzero(shore)
    mr, mc = np.median(rr), np.median(cc)
    k = int(np.argmin((rr - mr) ** 2 + (cc - mc) ** 2))
    # nudge half a glyph into the water so a fleet reads as sitting on that coast
    wr, wc = np.nonzero(water)
    j = int(np.argmin((wr - rr[k]) ** 2 + (wc - cc[k]) ** 2))
    fr = rr[k] + 0.35 * (wr[j] - rr[k])
    fc = cc[k] + 0.35 * (wc[j] - cc[k])
    return round(float((fc + 0.5) * scale), 1), round(float((fr + 0.5) * scale), 1)


def author(map_id: str) -> dict[str, Any]:
    grid = Grid(map_id)
    board = Board(map_id)
    config = boards.board(map_id)
    labels = grow(grid, board, config.seeds)
    np.save(f"/tmp/labels_{map_id}.npy", labels)
    for line in report(labels, board):
        print("MISSING", map_id, line)
    scale = WIDTH / grid.cols
    geoms = polygons(labels, scale)
    label_at = {}
    for pid, (lon, lat) in config.label_at.items():
        r, c = grid.cell_of(lon, lat)
        label_at[pid] = (round((c + 0.5) * scale, 1), round((r + 0.5) * scale, 1))
    marks = anchors(labels, board, scale, label_at)
    provinces = {}
    for i, pid in enumerate(board.ids):
        if i not in geoms:
            raise SystemExit(f"{pid} got no cells")
        provinces[pid] = {"shape": rings(geoms[i]), **marks[pid]}
    return {
        "schema_version": 1,
        "map_id": map_id,
        "width": WIDTH,
        "height": round(grid.rows * scale, 1),
        "source": "Authored by render/tools/author_geometry.py from the NOAA GLOBE 1 km land mask "
        "(public domain, via the global-land-mask package) and hand-placed seeds; not derived from "
        "any Diplomacy board drawing.",
        "provinces": provinces,
        "neutral_land": rings(geoms[NEUTRAL_LAND]) if NEUTRAL_LAND in geoms else [],
        "neutral_water": rings(geoms[NEUTRAL_WATER]) if NEUTRAL_WATER in geoms else [],
        "crossings": _crossings(map_id, geoms, board, labels),
    }


def _crossings(map_id: str, geoms: dict[int, Any], board: Board, labels: np.ndarray) -> list[dict[str, Any]]:
    """Straits: the shortest line between the two shores. Off-board routes: a note at the
    bottom edge of each province, where the route leaves the board. Any other adjacent pair the
    grown picture does not show touching gets a strait too (printed, so seeds can be moved)."""
    config = boards.board(map_id)
    out: list[dict[str, Any]] = []
    index = {pid: i for i, pid in enumerate(board.ids)}
    straits = list(config.crossings)
    for line in report(labels, board):
        a, b = line.split()[0].split("-")
        print("AUTO-STRAIT", map_id, a, b)
        straits.append((a, b))
    for a, b in straits:
        pa, pb = shapely.ops.nearest_points(geoms[index[a]], geoms[index[b]])
        (x1, y1), (x2, y2) = _stretch((pa.x, pa.y), (pb.x, pb.y), 4.0)
        out.append(
            {
                "provinces": [a, b],
                "kind": "strait",
                "points": [[round(x1, 1), round(y1, 1)], [round(x2, 1), round(y2, 1)]],
            }
        )
    for a, b, text in config.offmap:
        out.append(
            {
                "provinces": [a, b],
                "kind": "offmap",
                "label": text,
                "points": [_bottom_point(geoms[index[a]]), _bottom_point(geoms[index[b]])],
            }
        )
    return out


def _stretch(p: tuple[float, float], q: tuple[float, float], extra: float) -> tuple[tuple[float, float], ...]:
    d = math.dist(p, q) or 1.0
    ux, uy = (q[0] - p[0]) / d, (q[1] - p[1]) / d
    return (p[0] - ux * extra, p[1] - uy * extra), (q[0] + ux * extra, q[1] + uy * extra)


def _bottom_point(geom: Any) -> list[float]:
    """Where the province meets the bottom of the board (the middle of that stretch)."""
    ymax = geom.bounds[3]
    xs = [x for poly in geom.geoms for x, y in poly.exterior.coords if y >= ymax - 0.5]
    return [round((min(xs) + max(xs)) / 2, 1), round(ymax - 7.0, 1)]


def report(labels: np.ndarray, board: Board) -> list[str]:
    """Adjacent pairs whose regions do not touch (and are not joined by a crossing)."""
    pairs: dict[tuple[int, int], int] = defaultdict(int)
    for a, b in ((labels[:, :-1], labels[:, 1:]), (labels[:-1, :], labels[1:, :])):
        diff = (a != b) & (a >= 0) & (b >= 0)
        for x, y in zip(a[diff].tolist(), b[diff].tolist(), strict=True):
            pairs[(min(x, y), max(x, y))] += 1
    config = boards.board(board.map_id)
    joined = {frozenset(p) for p in config.crossings} | {frozenset(p[:2]) for p in config.offmap}
    problems = []
    for a in board.ids:
        for b in sorted(board.touch[a]):
            if a < b and frozenset((a, b)) not in joined:
                i, j = sorted((board.ids.index(a), board.ids.index(b)))
                if pairs.get((i, j), 0) < 2:
                    problems.append(f"{a}-{b} touch {pairs.get((i, j), 0)}")
    return problems


def main(argv: list[str]) -> None:
    for map_id in argv or ["classical", "1900"]:
        doc = author(map_id)
        path = ROOT / "render" / "geometry" / f"{map_id}.json"
        path.write_text(json.dumps(doc, separators=(",", ":"), sort_keys=True) + "\n")
        print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main(sys.argv[1:])
