"""URL syntax checks shared by source-rate and citation-validate: what a host really is.

Hosts are compared lower-cased, without a trailing dot, and with the user-info part removed
(``https://nature.com@evil.io/`` goes to ``evil.io``). Numeric hosts in every form that
``inet_aton`` accepts (``2130706433``, ``0177.0.0.1``, ``0x7f.1``) are recognised as IP
addresses, so nothing treats them as names.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["ParsedUrl", "UrlError", "is_public_address", "numeric_ipv4", "parse_url"]

_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
_NUMERIC_PART = re.compile(r"^(0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*)$")


class UrlError(ValueError):
    """A URL that cannot be used, with the reason in words."""


@dataclass(frozen=True)
class ParsedUrl:
    """A checked absolute http(s) URL."""

    url: str
    scheme: str
    host: str
    """Lower-case host name or IP address text, no brackets, no trailing dot."""
    port: int | None
    path: str
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address | None
    """The address when the host is numeric (in any notation)."""
    has_userinfo: bool
    assumed_scheme: bool
    """True when the input had no scheme and ``https://`` was assumed."""


def numeric_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """The IPv4 address of a numeric host in any ``inet_aton`` notation, else None.

    ``2130706433``, ``0177.0.0.1``, ``0x7f.0.0.1`` and ``127.1`` are all 127.0.0.1 to a resolver.
    """
    parts = host.split(".")
    if not 1 <= len(parts) <= 4 or not all(_NUMERIC_PART.match(p) for p in parts):
        return None
    try:
        values = [
            int(p, 0) if p.startswith("0x") else (int(p, 8) if p.startswith("0") else int(p)) for p in parts
        ]
    except ValueError:
        return None
    widths = {1: [32], 2: [8, 24], 3: [8, 8, 16], 4: [8, 8, 8, 8]}[len(parts)]
    number = 0
    for value, bits in zip(values, widths, strict=True):
        if value >= 1 << bits:
            return None
        number = (number << bits) | value
    return ipaddress.IPv4Address(number)


def is_public_address(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """False for loopback, private, link-local (incl. 169.254.169.254), unspecified, ULA, multicast, reserved."""
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped or ip.sixtofour
        if mapped is not None:
            return is_public_address(mapped)
    return ip.is_global and not ip.is_multicast


def parse_url(raw: str, *, assume_scheme: bool = False) -> ParsedUrl:
    """Check that ``raw`` is an absolute http(s) URL with a plausible host.

    Raises:
        UrlError: the URL is malformed; the message says why.
    """
    text = raw.strip()
    if not text:
        raise UrlError("empty URL")
    if any(c.isspace() for c in text) or any(ord(c) < 32 for c in text):
        raise UrlError("URL contains whitespace or control characters")
    assumed = False
    if "://" not in text:
        if not assume_scheme:
            raise UrlError("URL has no scheme (expected http:// or https://)")
        text = "https://" + text.lstrip("/")
        assumed = True
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise UrlError(f"URL cannot be parsed ({exc})") from exc
    scheme = parts.scheme.lower()
    if scheme not in {"http", "https"}:
        raise UrlError(f"unsupported URL scheme {scheme!r} (expected http or https)")
    host = (parts.hostname or "").rstrip(".").lower()
    if not host:
        raise UrlError("URL has no host")
    ip: ipaddress.IPv4Address | ipaddress.IPv6Address | None = None
    if ":" in host:
        try:
            ip = ipaddress.IPv6Address(host.split("%", 1)[0])
        except ValueError as exc:
            raise UrlError(f"invalid IPv6 host {host!r}") from exc
    else:
        ip = numeric_ipv4(host)
        if ip is None:
            try:
                ascii_host = host.encode("idna").decode("ascii")
            except UnicodeError as exc:
                raise UrlError(f"invalid host name {host!r}") from exc
            labels = ascii_host.split(".")
            if len(labels) < 2 and ascii_host != "localhost":
                raise UrlError(f"host {host!r} is not a fully qualified domain name")
            if not all(_LABEL.match(label) for label in labels):
                raise UrlError(f"host {host!r} has invalid characters")
            if labels[-1].isdigit():
                raise UrlError(f"host {host!r} is neither a domain name nor an IP address")
    return ParsedUrl(
        url=text,
        scheme=scheme,
        host=host,
        port=port,
        path=parts.path or "/",
        ip=ip,
        has_userinfo="@" in parts.netloc,
        assumed_scheme=assumed,
    )
