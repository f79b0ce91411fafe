"""The web client's security headers: one definition (template.yaml's WebSecurityHeaders), sent
by CloudFront on AWS and by the local stack on the same files (issue 27)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from local_stack.security_headers import headers_of, security_headers
from local_stack.template import load_template
from local_stack.web_static import with_client


def _get(app: Any, path: str) -> tuple[str, dict[str, str]]:
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        seen["status"], seen["headers"] = status, dict(headers)

    b"".join(app({"REQUEST_METHOD": "GET", "PATH_INFO": path}, start_response))
    return seen["status"], seen["headers"]


def _api(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    start_response("200 OK", [("Content-Type", "application/json")])
    return [b"{}"]


def test_cloudfront_policy_config_becomes_the_headers_a_browser_sees() -> None:
    config = {
        "SecurityHeadersConfig": {
            "ContentSecurityPolicy": {"ContentSecurityPolicy": "default-src 'self'", "Override": True},
            "StrictTransportSecurity": {"AccessControlMaxAgeSec": 63072000, "IncludeSubdomains": True,
                                        "Preload": False, "Override": True},
            "ContentTypeOptions": {"Override": True},
            "FrameOptions": {"FrameOption": "DENY", "Override": True},
            "ReferrerPolicy": {"ReferrerPolicy": "strict-origin-when-cross-origin", "Override": True},
        },
        "CustomHeadersConfig": {
            "Items": [{"Header": "Permissions-Policy", "Value": "camera=()", "Override": True}],
        },
    }
    assert headers_of(config) == {
        "Content-Security-Policy": "default-src 'self'",
        "Strict-Transport-Security": "max-age=63072000; includeSubDomains",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "strict-origin-when-cross-origin",
        "Permissions-Policy": "camera=()",
    }


def test_a_header_kind_the_local_stack_cannot_send_is_an_error_not_a_silent_gap() -> None:
    with pytest.raises(ValueError, match="XSSProtection"):
        headers_of({"SecurityHeadersConfig": {"XSSProtection": {"Protection": True, "Override": True}}})


def test_the_template_policy_is_the_one_read_and_says_what_the_client_needs() -> None:
    config = load_template()["Resources"]["WebSecurityHeaders"]["Properties"]["ResponseHeadersPolicyConfig"]
    headers = security_headers()
    assert headers == headers_of(config)
    directives = dict(d.strip().split(" ", 1) for d in headers["Content-Security-Policy"].split(";"))
    assert directives["frame-ancestors"] == "'none'" and directives["connect-src"] == "'self'"
    assert directives["script-src"] == "'self'" and directives["object-src"] == "'none'"
    assert "unsafe" not in headers["Content-Security-Policy"]
    assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    assert int(headers["Strict-Transport-Security"].split(";")[0].removeprefix("max-age=")) >= 31536000
    assert "camera=()" in headers["Permissions-Policy"]
    assert all(v.get("Override") for v in config["SecurityHeadersConfig"].values())


def test_the_local_stack_sends_them_on_the_page_and_the_static_files(tmp_path: Path) -> None:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<!doctype html><title>Convoy</title>")
    (tmp_path / "assets" / "index-abc.js").write_text("console.log(1)")
    (tmp_path / "favicon.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    app = with_client(_api, tmp_path)
    for path in ("/", "/index.html", "/assets/index-abc.js", "/favicon.svg"):
        status, headers = _get(app, path)
        assert status == "200 OK", path
        assert {k: headers.get(k) for k in security_headers()} == security_headers(), path
    # the API's own responses are not the client's files (CloudFront's API behaviours add none)
    assert "Content-Security-Policy" not in _get(app, "/games")[1]
