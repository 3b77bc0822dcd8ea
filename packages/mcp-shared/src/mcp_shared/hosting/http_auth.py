"""Bearer tokens and Host/Origin checks for the HTTP transport, through the MCP SDK's own machinery.

Authentication is the SDK's: ``StaticTokenVerifier`` is a ``TokenVerifier`` that the SDK's
``BearerAuthBackend`` and ``RequireAuthMiddleware`` call, so a request to ``/mcp`` without a
valid ``Authorization: Bearer`` token gets the SDK's 401 with ``WWW-Authenticate: Bearer
error="invalid_token"``. The tokens come from a file, one per line; only their SHA-256
digests are kept, and a presented token is compared with every digest in constant time
(``hmac.compare_digest`` over equal-length digests, no early exit), so neither a token's
content nor its length leaks through timing. Tokens are never logged: a token is known in
logs by its line number in the file (``token-3``).

DNS-rebinding protection is the SDK's ``TransportSecuritySettings``: on a loopback bind the
SDK allows only loopback Host/Origin values; ``--allowed-host`` adds the names a deployment
is reached by (behind a load balancer, its public hostname).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import logging
import re
import stat
from collections.abc import Sequence
from pathlib import Path

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import AnyHttpUrl

from ..env import SettingsError

__all__ = ["StaticTokenVerifier", "allowed_hosts_security", "is_loopback", "token_auth_settings"]

logger = logging.getLogger(__name__)

MIN_TOKEN_CHARS = 16
_TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]+=*")  # RFC 6750 b64token
_LOOPBACK_HOSTS = ["127.0.0.1:*", "localhost:*", "[::1]:*"]
_LOOPBACK_ORIGINS = ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8")).digest()


class StaticTokenVerifier:
    """The SDK's ``TokenVerifier`` protocol over a fixed set of bearer tokens."""

    def __init__(self, tokens: Sequence[tuple[str, str]]) -> None:
        """``tokens``: ``(label, token)`` pairs; the label names the token in logs."""
        if not tokens:
            raise ValueError("StaticTokenVerifier needs at least one token")
        self._digests = [(label, _digest(token)) for label, token in tokens]

    @classmethod
    def from_file(cls, path: Path) -> StaticTokenVerifier:
        """Read one token per line (blank lines and ``#`` comments ignored).

        Raises:
            SettingsError: the file is unreadable or empty, or a line is not a usable token
                (the error names the line, never its content).
        """
        try:
            text = path.read_text(encoding="utf-8")
            mode = path.stat().st_mode
        except (OSError, UnicodeDecodeError) as exc:
            raise SettingsError(f"--auth-tokens-file {path} cannot be read ({type(exc).__name__})") from None
        tokens: list[tuple[str, str]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            token = line.strip()
            if not token or token.startswith("#"):
                continue
            if not _TOKEN.fullmatch(token):
                raise SettingsError(
                    f"--auth-tokens-file {path}, line {number}: a token may hold only letters, digits "
                    "and - . _ ~ + / (then = padding), with no spaces"
                )
            if len(token) < MIN_TOKEN_CHARS:
                raise SettingsError(
                    f"--auth-tokens-file {path}, line {number}: a token needs at least {MIN_TOKEN_CHARS} "
                    "characters (make one with: python -c 'import secrets; print(secrets.token_urlsafe(32))')"
                )
            tokens.append((f"token-{number}", token))
        if not tokens:
            raise SettingsError(f"--auth-tokens-file {path} holds no token (one per line)")
        if mode & (stat.S_IRWXG | stat.S_IRWXO):
            logger.warning("%s is readable by other users; chmod 600 it", path)
        return cls(tokens)

    def __len__(self) -> int:
        return len(self._digests)

    async def verify_token(self, token: str) -> AccessToken | None:
        """The token's access info if it is one of ours, else None (the SDK answers 401)."""
        presented = _digest(token)
        matched: str | None = None
        for label, digest in self._digests:  # no early exit: every token is compared
            if hmac.compare_digest(presented, digest) and matched is None:
                matched = label
        if matched is None:
            return None
        return AccessToken(token=token, client_id=matched, scopes=[])


def token_auth_settings(host: str, port: int) -> AuthSettings:
    """The SDK's auth settings for a server that only checks bearer tokens (no OAuth server).

    ``issuer_url`` is required by the model; with no ``resource_server_url`` the SDK publishes
    no metadata from it and uses it nowhere, so the server's own address stands in.
    """
    shown = f"[{host}]" if ":" in host else host
    return AuthSettings(
        issuer_url=AnyHttpUrl(f"http://{shown}:{port}"), resource_server_url=None, required_scopes=[]
    )


def is_loopback(host: str) -> bool:
    """Whether binding ``host`` keeps the server reachable from this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def allowed_hosts_security(bind_host: str, allowed: Sequence[str]) -> TransportSecuritySettings | None:
    """Host/Origin allow-list for ``--allowed-host`` values (None: the SDK's default for the bind).

    A name given without a port allows any port (``name:*``) as well as the bare name; the
    loopback names stay allowed on a loopback bind, so local health checks and tests still work.
    """
    if not allowed:
        return None
    hosts: list[str] = list(_LOOPBACK_HOSTS) if is_loopback(bind_host) else []
    origins: list[str] = list(_LOOPBACK_ORIGINS) if is_loopback(bind_host) else []
    for raw in allowed:
        name = raw.strip().lower()
        if not name or "/" in name or " " in name:
            raise SettingsError(f"--allowed-host {raw!r} is not a host name (give e.g. mcp.example.org:443)")
        has_port = re.search(r":(\d+|\*)$", name) is not None and not name.endswith("]")
        names = [name] if has_port else [name, f"{name}:*"]
        hosts.extend(names)
        origins.extend(f"{scheme}://{n}" for n in names for scheme in ("http", "https"))
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True, allowed_hosts=hosts, allowed_origins=origins
    )
