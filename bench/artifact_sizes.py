"""Each Lambda artifact's size, unzipped and zipped, as `sam build` makes it (issue 27 item 1).

Builds the shipped artifacts (python3.12, arm64: deploy/build_artifacts.py) into build/lambda-arm64/
unless ``--host`` (this machine's CPU, the rehearsal's), then prints a table. Lambda's limits:
250 MB unzipped, 50 MB zipped for a direct upload (`sam deploy` uploads to S3, where the zipped
limit does not apply, but the unzipped one does).
"""

from __future__ import annotations

import argparse
import io
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from deploy import build_artifacts  # noqa: E402 - after the path is set


def sizes(artifact: Path) -> tuple[int, int, int]:
    """(files, bytes unzipped, bytes zipped with deflate as SAM packages it)."""
    files = [p for p in sorted(artifact.rglob("*")) if p.is_file()]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in files:
            archive.write(path, path.relative_to(artifact))
    return len(files), sum(p.stat().st_size for p in files), buffer.tell()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", action="store_true", help="this machine's CPU instead of arm64")
    args = parser.parse_args()
    target = build_artifacts.host_target() if args.host else build_artifacts.SHIPPED
    base = ROOT / "build" / f"lambda-{target.name}"
    print(f"Lambda artifacts for {target.name} ({base}):")
    print(f"| {'function':<22} | {'files':>6} | {'unzipped MB':>11} | {'zipped MB':>9} | third-party |")
    print(f"|{'-' * 24}|{'-' * 8}|{'-' * 13}|{'-' * 11}|{'-' * 13}|")
    for logical_id in build_artifacts.FUNCTIONS:
        out = base / logical_id
        build_artifacts.build(logical_id, out, target)
        count, unzipped, zipped = sizes(out)
        _, requirements = build_artifacts.plan(logical_id)
        print(
            f"| {logical_id:<22} | {count:>6} | {unzipped / 1e6:>11.1f} | {zipped / 1e6:>9.1f} | "
            f"{', '.join(r.split('==')[0] for r in requirements)} |"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
