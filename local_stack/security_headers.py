"""The security headers of the web client's files, read from template.yaml (issue 27).

On AWS, CloudFront adds them to everything the web bucket serves: the distribution's default
behaviour names ``WebSecurityHeaders``, an ``AWS::CloudFront::ResponseHeadersPolicy``. The
local stack sends the same headers on the same files, built from that one definition, so a
Content-Security-Policy that would break the client breaks it under ``make run`` and in the
browser tests (tests/web) first, not only once deployed.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from local_stack.template import load_template

POLICY = "WebSecurityHeaders"

# CloudFront's SecurityHeadersConfig keys this module turns into headers. A key the template
# starts using that is not here is an error rather than a header the local stack leaves out.
_KNOWN = {"ContentSecurityPolicy", "StrictTransportSecurity", "ContentTypeOptions", "FrameOptions",
          "ReferrerPolicy"}


def headers_of(config: Mapping[str, Any]) -> dict[str, str]:
    """The HTTP headers CloudFront sends for a ``ResponseHeadersPolicyConfig``."""
    security = config.get("SecurityHeadersConfig") or {}
    unknown = set(security) - _KNOWN
    if unknown:
        raise ValueError(f"{POLICY}: not sent by the local stack yet: {sorted(unknown)}")
    headers: dict[str, str] = {}
    if csp := security.get("ContentSecurityPolicy"):
        headers["Content-Security-Policy"] = str(csp["ContentSecurityPolicy"])
    if hsts := security.get("StrictTransportSecurity"):
        value = f"max-age={int(hsts['AccessControlMaxAgeSec'])}"
        value += "; includeSubDomains" if hsts.get("IncludeSubdomains") else ""
        value += "; preload" if hsts.get("Preload") else ""
        headers["Strict-Transport-Security"] = value
    if "ContentTypeOptions" in security:
        headers["X-Content-Type-Options"] = "nosniff"
    if frame := security.get("FrameOptions"):
        headers["X-Frame-Options"] = str(frame["FrameOption"])
    if referrer := security.get("ReferrerPolicy"):
        headers["Referrer-Policy"] = str(referrer["ReferrerPolicy"])
    for item in (config.get("CustomHeadersConfig") or {}).get("Items", []):
        headers[str(item["Header"])] = str(item["Value"])
    return headers


@cache
def security_headers() -> dict[str, str]:
    """template.yaml's web security headers (read once per process)."""
    policy = load_template()["Resources"][POLICY]["Properties"]["ResponseHeadersPolicyConfig"]
    return headers_of(policy)


def with_live_origin(headers: dict[str, str], live_url: str) -> dict[str, str]:
    """The one local difference (issue 33): on AWS the live socket is on the client's own origin
    (CloudFront sends ``/live`` to the WebSocket API), so ``connect-src 'self'`` covers it; under
    ``make run`` it listens on a port of its own, whose origin is added to ``connect-src``."""
    csp = headers.get("Content-Security-Policy")
    if not csp or not live_url.startswith(("ws://", "wss://")):
        return headers
    origin = "/".join(live_url.split("/")[:3])
    widened = csp.replace("connect-src 'self'", f"connect-src 'self' {origin}")
    return {**headers, "Content-Security-Policy": widened}
