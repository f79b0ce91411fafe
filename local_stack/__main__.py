"""``python -m local_stack``: the whole of Convoy on one laptop, until Ctrl-C."""

from __future__ import annotations

import os
import sys
import time

from local_stack.stack import LocalStack


def main() -> int:
    port = int(os.environ.get("CONVOY_PORT", "8000"))
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    workers = int(os.environ.get("CONVOY_API_WORKERS", "2"))
    stack = LocalStack(port=port, api_workers=workers).start()
    print(f"Convoy is running on {stack.url}  (AWS emulator at {stack.emulator.endpoint}; Ctrl-C stops)")
    json_header = "-H 'content-type: application/json'"
    print(f"  curl -s -X POST {stack.url}/games {json_header} -d '{{\"variant\": \"classical\"}}'")
    print(f"  curl -s -X POST {stack.url}/games/<game_id>/join {json_header} -d '{{\"power\": \"FRANCE\"}}'")
    print("API docs: GET /openapi.json, docs/api.md; state lives as long as this process.", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print("stopping", file=sys.stderr)
    finally:
        stack.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
