"""template.yaml serves the web client (issue 16): a private bucket behind CloudFront, which
also routes every API path to the HTTP API, so client and API share one origin."""

from __future__ import annotations

import fnmatch
from typing import Any

from functions.api.handler import openapi_document
from local_stack.template import load_template, resources_of

CACHING_DISABLED = "4135ea2d-6df8-44a3-9df3-4b5a84be39ad"
ALL_VIEWER_EXCEPT_HOST = "b689b0a8-53d0-40ab-baf2-68738e2966ac"


def _distribution() -> dict[str, Any]:
    distributions = resources_of(load_template(), "AWS::CloudFront::Distribution")
    config: dict[str, Any] = distributions["WebDistribution"]["DistributionConfig"]
    return config


def test_the_bucket_is_private_and_read_only_by_the_distribution() -> None:
    template = load_template()
    bucket = resources_of(template, "AWS::S3::Bucket")["WebBucket"]
    assert all(bucket["PublicAccessBlockConfiguration"].values())
    policy = resources_of(template, "AWS::S3::BucketPolicy")["WebBucketPolicy"]["PolicyDocument"]
    statement, = policy["Statement"]
    assert statement["Principal"] == {"Service": "cloudfront.amazonaws.com"}
    assert statement["Action"] == "s3:GetObject"
    assert "WebDistribution" in str(statement["Condition"])


PUBLIC_MAPS = {"/games/{game_id}/map", "/games/{game_id}/map/resolution"}


def test_every_api_route_reaches_the_api_uncached_with_its_headers() -> None:
    """A route whose path no behaviour matches would be asked of the bucket: 403 on AWS only.
    Only the public map pictures may be kept at the edge (issue 29), and only as the API says."""
    behaviours = _distribution()["CacheBehaviors"]
    api_paths = [*openapi_document()["paths"], "/openapi.json", "/webhooks/telegram"]
    for path in api_paths:
        matching = [b for b in behaviours if fnmatch.fnmatchcase(path, b["PathPattern"])]
        assert matching, f"{path} would be served from the web bucket"
        first = matching[0]
        assert first["TargetOriginId"] == "api"
        assert first["OriginRequestPolicyId"] == ALL_VIEWER_EXCEPT_HOST
        if path in PUBLIC_MAPS:
            assert first["CachePolicyId"] == {"Ref": "MapCachePolicy"}, path
            continue
        assert first["CachePolicyId"] == CACHING_DISABLED, path
        if path not in ("/openapi.json", "/games/{game_id}/map/orders"):
            assert "POST" in first["AllowedMethods"] and "DELETE" in first["AllowedMethods"]


def test_the_map_cache_keeps_only_what_the_api_marks_public_and_keys_on_the_query() -> None:
    policy = resources_of(load_template(), "AWS::CloudFront::CachePolicy")["MapCachePolicy"]
    config = policy["CachePolicyConfig"]
    assert config["DefaultTTL"] == 0 and config["MinTTL"] == 0  # no Cache-Control: not kept
    keyed = config["ParametersInCacheKeyAndForwardedToOrigin"]
    assert keyed["QueryStringsConfig"] == {"QueryStringBehavior": "all"}
    assert keyed["HeadersConfig"]["Headers"] == ["Accept"]  # never Authorization: public only


def test_the_client_is_the_default_and_only_over_https() -> None:
    config = _distribution()
    assert config["DefaultCacheBehavior"]["TargetOriginId"] == "web"
    assert config["DefaultRootObject"] == "index.html"
    every = [config["DefaultCacheBehavior"], *config["CacheBehaviors"]]
    assert all(b["ViewerProtocolPolicy"] != "allow-all" for b in every)


def test_the_client_files_get_our_security_headers_policy_and_the_api_none() -> None:
    """issue 27: our own policy (the managed SecurityHeadersPolicy has no CSP); its contents are
    checked with the local stack's copy in tests/local_stack/test_security_headers.py."""
    config = _distribution()
    assert config["DefaultCacheBehavior"]["ResponseHeadersPolicyId"] == {"Ref": "WebSecurityHeaders"}
    assert all("ResponseHeadersPolicyId" not in b for b in config["CacheBehaviors"])
    policies = resources_of(load_template(), "AWS::CloudFront::ResponseHeadersPolicy")
    assert list(policies) == ["WebSecurityHeaders"]
    # policy names are unique per account: the stack's name keeps two stacks apart
    name = policies["WebSecurityHeaders"]["ResponseHeadersPolicyConfig"]["Name"]
    assert "${AWS::StackName}" in name["Fn::Sub"]
