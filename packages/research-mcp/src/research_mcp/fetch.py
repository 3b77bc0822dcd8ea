"""Fetch a user-supplied URL without letting it reach into private networks.

Every hop (the first request and each redirect, followed by hand) is parsed, its host
resolved, and every resolved address checked: loopback, private (10/8, 172.16/12,
192.168/16), link-local (169.254/16, incl. 169.254.169.254), unspecified, IPv6 ULA and
link-local, and numeric hosts in decimal/octal/hex forms are refused unless the settings
allow private URLs. The connection goes to the address that was checked (the resolution is
pinned; TLS still verifies the certificate against the host name), the body is capped in
bytes, and the whole fetch is capped in time.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

import anyio
import httpx

from .settings import Settings
from .urls import ParsedUrl, UrlError, is_public_address, parse_url

__all__ = ["AddressPolicy", "FetchResult", "default_policy", "fetch_url"]

logger = logging.getLogger(__name__)

REDIRECT_CODES = {301, 302, 303, 307, 308}
USER_AGENT = "research-mcp/0.1 (citation check)"


@dataclass
class FetchResult:
    """What happened to one URL; ``error`` is set when it could not be fetched."""

    url: str
    final_url: str | None = None
    status_code: int | None = None
    redirects: int = 0
    content_type: str | None = None
    body: bytes = b""
    truncated: bool = False
    error: str | None = None
    error_kind: str | None = None  # malformed | refused_address | unreachable | timeout | too_many_redirects
    hops: list[str] = field(default_factory=list)

    @property
    def reachable(self) -> bool:
        return self.error is None and self.status_code is not None and self.status_code < 400

    def summary(self) -> dict[str, Any]:
        return {
            "checked": True,
            "reachable": self.reachable,
            "status_code": self.status_code,
            "final_url": self.final_url,
            "redirects": self.redirects,
            "content_type": self.content_type,
            "error": self.error,
        }


class _Refused(Exception):
    pass


AddressPolicy = Callable[[ipaddress.IPv4Address | ipaddress.IPv6Address], bool]


async def _pinned_address(host: str, port: int, allowed: AddressPolicy) -> str:
    """Resolve ``host`` and return one address to connect to, refusing private ones."""
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        if not allowed(literal):
            raise _Refused(f"{host} is a private, loopback or link-local address")
        return str(literal)
    try:
        infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise OSError(f"cannot resolve {host}: {exc}") from exc
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%", 1)[0]) for info in infos]
    if not addresses:
        raise OSError(f"{host} has no addresses")
    bad = [a for a in addresses if not allowed(a)]
    if bad:
        raise _Refused(f"{host} resolves to a private, loopback or link-local address ({bad[0]})")
    return str(addresses[0])


def _with_host(url: str, address: str) -> str:
    parts = urlsplit(url)
    host = f"[{address}]" if ":" in address else address
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path or "/", parts.query, ""))


def default_policy(settings: Settings) -> AddressPolicy:
    """Public addresses only, unless the settings allow private URLs."""
    if settings.allow_private_urls:
        return lambda ip: True
    return is_public_address


async def fetch_url(
    url: str, settings: Settings, *, read_body: bool, address_allowed: AddressPolicy | None = None
) -> FetchResult:
    """GET ``url`` hop by hop under the address policy; read at most ``http_max_bytes`` of the body.

    ``address_allowed`` defaults to ``default_policy(settings)``; every hop's addresses must pass it.
    """
    result = FetchResult(url=url)
    allowed = address_allowed or default_policy(settings)
    try:
        with anyio.fail_after(settings.http_timeout_seconds):
            await _fetch(url, settings, read_body, result, allowed)
    except TimeoutError:
        result.error, result.error_kind = f"timed out after {settings.http_timeout_seconds:g} s", "timeout"
    return result


def _checked_url(current: str, hop: int, result: FetchResult, allowed: AddressPolicy) -> ParsedUrl | None:
    """This hop's URL parsed, or ``None`` with the error in ``result`` (malformed, or a numeric alias of a
    refused address)."""
    try:
        parsed = parse_url(current)
    except UrlError as exc:
        result.error, result.error_kind = f"malformed URL at hop {hop}: {exc}", "malformed"
        return None
    # 2130706433, 0177.0.0.1, 0x7f.1: a resolver reads these as addresses; say so plainly
    numeric_alias = parsed.ip is not None and ":" not in parsed.host and str(parsed.ip) != parsed.host
    if numeric_alias and parsed.ip is not None and not allowed(parsed.ip):
        result.error = f"refused {parsed.host}: a numeric form of {parsed.ip}, a private or loopback address"
        result.error_kind = "refused_address"
        return None
    return parsed


async def _hop_address(
    parsed: ParsedUrl, hop: int, result: FetchResult, allowed: AddressPolicy
) -> str | None:
    """The checked address this hop connects to, or ``None`` with the error in ``result``."""
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    host_for_dns = str(parsed.ip) if parsed.ip is not None else parsed.host
    try:
        return await _pinned_address(host_for_dns, port, allowed)
    except _Refused as exc:
        kind = "redirect into a private address" if hop else "private address"
        result.error, result.error_kind = f"refused {kind}: {exc}", "refused_address"
        return None
    except OSError as exc:
        result.error, result.error_kind = str(exc), "unreachable"
        return None


def _pinned_request(client: httpx.AsyncClient, parsed: ParsedUrl, address: str) -> httpx.Request:
    """A GET to the checked address, carrying the URL's own host (and TLS name) so the server sees it."""
    host_header = parsed.host
    if ":" in host_header:
        host_header = f"[{host_header}]"
    if parsed.port:
        host_header = f"{host_header}:{parsed.port}"
    extensions = {"sni_hostname": parsed.host} if parsed.scheme == "https" and parsed.ip is None else {}
    return client.build_request(
        "GET",
        _with_host(parsed.url, address),
        headers={"Host": host_header, "User-Agent": USER_AGENT, "Accept": "text/html,text/plain,*/*"},
        extensions=extensions,
    )


async def _read_body(response: httpx.Response, max_bytes: int, result: FetchResult) -> None:
    """At most ``max_bytes`` of the body into ``result`` (``truncated`` when there was more)."""
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in response.aiter_bytes():
            chunks.append(chunk)
            size += len(chunk)
            if size >= max_bytes:
                result.truncated = True
                break
    except httpx.HTTPError as exc:
        # the status line arrived, the body did not (connection reset, bad encoding...)
        result.error = f"the page could not be read: {type(exc).__name__}: {exc}"
        result.error_kind = "unreachable"
        return
    result.body = b"".join(chunks)[:max_bytes]


async def _fetch(
    url: str, settings: Settings, read_body: bool, result: FetchResult, allowed: AddressPolicy
) -> None:
    """Follow ``url`` hop by hop, each hop checked and pinned, recording what happened in ``result``."""
    timeout = httpx.Timeout(settings.http_timeout_seconds)
    current = url
    async with httpx.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False) as client:
        for hop in range(settings.http_max_redirects + 1):
            result.hops.append(current)
            parsed = _checked_url(current, hop, result, allowed)
            if parsed is None:
                return
            address = await _hop_address(parsed, hop, result, allowed)
            if address is None:
                return
            request = _pinned_request(client, parsed, address)
            try:
                response = await client.send(request, stream=True)
            except httpx.HTTPError as exc:
                result.error, result.error_kind = (
                    f"request failed: {type(exc).__name__}: {exc}",
                    "unreachable",
                )
                return
            try:
                result.status_code = response.status_code
                result.content_type = response.headers.get("content-type")
                location = response.headers.get("location")
                if response.status_code in REDIRECT_CODES and location:
                    current = urljoin(current, location)
                    result.redirects = hop + 1
                    continue
                result.final_url = current
                if read_body:
                    await _read_body(response, settings.http_max_bytes, result)
                return
            finally:
                with contextlib.suppress(httpx.HTTPError):
                    await response.aclose()
        result.error = f"more than {settings.http_max_redirects} redirects"
        result.error_kind = "too_many_redirects"
        result.status_code = None
