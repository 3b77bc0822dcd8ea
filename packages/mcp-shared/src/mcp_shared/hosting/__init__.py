"""Hosting a server: the shared command line (``serve``: stdio by default, streamable HTTP with
``--transport http``), bearer-token authentication through the SDK's verifier
(``StaticTokenVerifier``), and a stdin that tells a client's hang-up from a quiet line.

These track the SDK's transports, so they live apart from the core a tool needs.
"""

from .cli import serve
from .http_auth import StaticTokenVerifier

__all__ = ["StaticTokenVerifier", "serve"]
