"""Which IP addresses a player-supplied URL may reach: one rule for the creation check of a
notify URL (functions/usecases/notifications/notify_targets.py) and for the guard of every send
(infra/webhooks.py), so the two can never disagree.

An address is public when it is globally routable unicast: not private, loopback,
link-local, reserved, multicast or unspecified, and ``is_global``. For IPv6 that is not
enough (issue 28 item 8): Python 3.11 calls ``2002:a9fe:a9fe::1`` global, yet a 6to4 relay
delivers it to 169.254.169.254, the metadata service. So every IPv6 form that carries an
IPv4 address inside it is judged by that IPv4 address too:

| form | prefix | where the IPv4 address sits |
|---|---|---|
| IPv4-mapped | ``::ffff:0:0/96`` | the low 32 bits (judged by it alone) |
| IPv4-translated (SIIT) | ``::ffff:0:0:0/96`` | the low 32 bits |
| IPv4-compatible (deprecated) | ``::/96`` | the low 32 bits |
| NAT64, well-known prefix | ``64:ff9b::/96`` | the low 32 bits (judged by it alone [1]) |
| NAT64, local-use | ``64:ff9b:1::/48`` | RFC 6052's /48 and /96 layouts [2] |
| 6to4 | ``2002::/16`` | bits 16-47 |
| Teredo | ``2001::/32`` | the server (bits 32-63), the client (low 32 bits, inverted) |
| ISATAP | interface id ``0:5efe`` or ``200:5efe`` | the low 32 bits |

[1] a DNS64 resolver answers these for public IPv4-only hosts, so they stay usable.
[2] the prefix itself is not globally reachable, so these are refused in any case.

An address with any embedded IPv4 address that is not public is refused, whatever Python
thinks of the IPv6 address. Pure: standard library only, no DNS.
"""

from __future__ import annotations

import ipaddress

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")
TRANSLATED = ipaddress.IPv6Network("::ffff:0:0:0/96")
COMPATIBLE = ipaddress.IPv6Network("::/96")
NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")
SIX_TO_FOUR = ipaddress.IPv6Network("2002::/16")
TEREDO = ipaddress.IPv6Network("2001::/32")
_LOW32 = 0xFFFFFFFF


def parse(address: str) -> IPAddress:
    """An address as text (an IPv6 zone id, ``%eth0``, dropped); ``ValueError`` if it is none."""
    return ipaddress.ip_address(address.split("%", 1)[0])


def _v4(value: int) -> ipaddress.IPv4Address:
    return ipaddress.IPv4Address(value & _LOW32)


def embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """Every IPv4 address ``ip`` carries inside it, by the forms of the module's table."""
    value = int(ip)
    found: list[ipaddress.IPv4Address] = []
    if ip in MAPPED or ip in TRANSLATED or ip in NAT64 or (ip in COMPATIBLE and value > 1):
        found.append(_v4(value))  # (:: and ::1 are not IPv4-compatible addresses)
    elif ip in NAT64_LOCAL:
        found.append(_v4(value))  # the /96 layout
        found.append(_v4(((value >> 64) & 0xFFFF) << 16 | (value >> 40) & 0xFFFF))  # the /48 layout
    elif ip in SIX_TO_FOUR:
        found.append(_v4(value >> 80))
    elif ip in TEREDO:
        found.append(_v4(value >> 64))  # the Teredo server
        found.append(_v4(~value))  # the client, stored inverted
    if (value >> 32) & 0xFDFFFFFF == 0x00005EFE:  # ISATAP interface id, u/l bit either way
        found.append(_v4(value))
    return found


def _routable(ip: IPAddress) -> bool:
    forbidden = (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved
                 or ip.is_multicast or ip.is_unspecified)
    return not forbidden and ip.is_global


def is_public(ip: IPAddress) -> bool:
    """True only for a globally routable unicast address whose embedded IPv4 addresses are too."""
    if isinstance(ip, ipaddress.IPv4Address):
        return _routable(ip)
    inner = embedded_ipv4(ip)
    if ip in MAPPED or ip in NAT64:  # only a carrier: the IPv4 address is where it goes
        return all(_routable(v4) for v4 in inner)
    return _routable(ip) and all(_routable(v4) for v4 in inner)


def is_public_address(address: str) -> bool:
    """``is_public`` of an address given as text (``ValueError`` if it is none)."""
    return is_public(parse(address))


def is_loopback_address(address: str) -> bool:
    """Loopback, also as an IPv4-mapped IPv6 address (``::ffff:127.0.0.1``)."""
    ip = parse(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped.is_loopback
    return ip.is_loopback
