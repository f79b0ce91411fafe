"""Host names a notify URL may never name, known without a DNS lookup (issue 10).

At game creation we do not resolve names (the answer could change before the first
send, so a lookup proves nothing). We refuse the names that can only be internal:

- single-label names (``metadata``, ``intranet``): resolved by search domains, inside;
- reserved or internal suffixes: ``.internal`` (``metadata.google.internal``),
  ``.local``, ``.localhost``, ``.localdomain``, ``.home.arpa``, ``.intranet``, ``.lan``,
  ``.corp``, ``.private`` and the reverse-DNS zones ``.in-addr.arpa`` / ``.ip6.arpa``;
- names that spell a non-public IPv4 address inside them, the way wildcard DNS
  services answer (``169.254.169.254.nip.io``, ``10-0-0-1.sslip.io``,
  ``app.127.0.0.1.xip.io``, ``0a000001.nip.io``): such a name exists to reach that address.

Every other name is resolved at *send* time, and the send is refused when any of
its addresses is private, loopback, link-local or otherwise not global
(infra/webhooks.py ``vet_url``; the connection is pinned to the vetted address so a
second lookup cannot swap it). tests/security/test_webhook_hosts.py shows both.
"""

from __future__ import annotations

import functools
import ipaddress
import re
from typing import Any

INTERNAL_SUFFIXES = (
    "internal", "local", "localhost", "localdomain", "home.arpa", "intranet", "lan", "corp",
    "private", "in-addr.arpa", "ip6.arpa",
)
_DOTTED = re.compile(r"(?<![0-9])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})(?![0-9])")
_HEX = re.compile(r"^([0-9a-f]{8})$")


def _embedded_addresses(host: str) -> list[ipaddress.IPv4Address]:
    found: list[ipaddress.IPv4Address] = []
    for match in _DOTTED.finditer(host):
        octets = [int(x) for x in match.groups()]
        if all(o <= 255 for o in octets):
            found.append(ipaddress.IPv4Address(".".join(str(o) for o in octets)))
    for label in host.split("."):
        if _HEX.match(label):
            found.append(ipaddress.IPv4Address(int(label, 16)))
    return found


def internal_name_reason(host: str) -> str | None:
    """Why ``host`` (a name, not an IP literal) is refused, or None if only DNS can tell."""
    name = host.lower().rstrip(".")
    if "." not in name:
        return f"{host!r} is a single-label (internal) name"
    for suffix in INTERNAL_SUFFIXES:
        if name == suffix or name.endswith("." + suffix):
            return f"{host!r} is an internal name (.{suffix})"
    for address in _embedded_addresses(name):
        if not address.is_global:
            return f"{host!r} spells the non-public address {address}"
    return None


@functools.cache
def _suffixes() -> Any:
    """The Public Suffix List (``publicsuffixlist``: the list ships in the wheel, no network),
    loaded once per process (about 70 ms) on the first use, never at import."""
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()


def registrable_domain(host: str) -> str:
    """Who answers for ``host``: its registrable domain by the Public Suffix List
    (``a.b.victim.co.uk`` -> ``victim.co.uk``; ``x.herokuapp.com`` stays itself, as the list
    names ``herokuapp.com`` a suffix whose tenants are separate parties). An IP literal is
    itself; a name the list cannot place (a single label, ``localhost``) is itself.

    Per-host limits count by it (issue 28 item 7: limits per exact host name were dodged with
    many names under one domain)."""
    name = host.lower().rstrip(".").strip("[]")
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    return str(_suffixes().privatesuffix(name) or name)
