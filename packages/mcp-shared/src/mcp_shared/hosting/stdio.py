"""The stdio wire, read on the event loop, with an answer for every request it cannot read.

Two reasons not to use the SDK's own reader as it is:

- It reads stdin in a worker thread that cancellation cannot interrupt, so SIGTERM or a
  closed pipe could not stop the server promptly. ``LoopStdin`` waits on the event loop.
- A line that is not a valid JSON-RPC message (JSON nested deeper than the parser allows,
  ``params`` that is not an object, a lone surrogate) is dropped without a reply, and the
  client waits for an answer that never comes. ``LoopStdin`` checks each line first and,
  when the request's id can be recovered, answers it with a JSON-RPC error instead.
"""

from __future__ import annotations

import codecs
import io
import json
import logging
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import anyio
import mcp_types as types
from anyio.abc import ObjectSendStream
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

__all__ = ["LoopStdin", "claimed_stdin", "unreadable_reply"]

logger = logging.getLogger(__name__)

_READ_CHUNK = 65536
_LEADING_ID = re.compile(rb'^\s*\{[^{}\[\]]*?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")')


def _recover_id(line: bytes) -> int | str | None:
    """The request id of a line that failed validation, when one can be trusted."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        message = None
    if isinstance(message, dict):
        rid = message.get("id")
        if isinstance(rid, bool):
            return None
        return rid if isinstance(rid, int | str) else None
    match = _LEADING_ID.match(line)  # JSON too deep for the parser: an id before any nesting is still the id
    if match is None:
        return None
    try:
        value = json.loads(match.group(1))
    except ValueError:
        return None
    return value if isinstance(value, int | str) else None


def unreadable_reply(line: str) -> SessionMessage | None:
    """A JSON-RPC error for ``line`` if it is not a valid message but names a request id, else None.

    ``None`` also for every valid line: those go to the SDK untouched.
    """
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValidationError as exc:
        reason = exc.errors(include_url=False, include_input=False)[0]["msg"] if exc.errors() else "invalid"
    except (ValueError, RecursionError) as exc:
        reason = str(exc)
    else:
        return None
    raw = line.encode("utf-8", errors="surrogatepass")
    rid = _recover_id(raw)
    logger.info("unreadable JSON-RPC message (id %r): %s", rid, reason[:200])
    if rid is None:
        return None
    try:
        json.loads(raw)
        code, message = types.INVALID_REQUEST, f"Invalid request: {reason[:200]}"
    except (ValueError, RecursionError):
        code, message = types.PARSE_ERROR, f"Parse error: {reason[:200]}"
    error = types.JSONRPCError(jsonrpc="2.0", id=rid, error=types.ErrorData(code=code, message=message))
    return SessionMessage(error)


class LoopStdin(anyio.AsyncFile[str]):
    """Lines from a pipe, read when the event loop says it is readable: cancellable, unlike a thread."""

    def __init__(self, fd: int, *, on_eof: Callable[[], None] | None = None) -> None:
        super().__init__(io.StringIO())  # a placeholder: readline() below reads the descriptor itself
        self._fd = fd
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending = ""
        self._searched = 0
        self._eof = False
        self._on_eof = on_eof
        self._replies: ObjectSendStream[SessionMessage] | None = None

    def answer_unreadable_on(self, write_stream: ObjectSendStream[SessionMessage]) -> None:
        """From now on, answer unreadable requests on ``write_stream`` instead of passing them on."""
        self._replies = write_stream

    async def readline(self) -> str:
        while True:
            line = await self._next_line()
            if self._replies is None or not line.strip():
                return line
            reply = unreadable_reply(line)
            if reply is None:
                return line
            await self._replies.send(reply)

    async def _next_line(self) -> str:
        while True:
            newline = self._pending.find("\n", self._searched)
            if newline >= 0:
                line, self._pending = self._pending[: newline + 1], self._pending[newline + 1 :]
                self._searched = 0
                return line
            self._searched = len(self._pending)
            if self._eof:
                line, self._pending, self._searched = self._pending, "", 0
                return line
            await anyio.wait_readable(self._fd)
            try:
                chunk = os.read(self._fd, _READ_CHUNK)
            except BlockingIOError:
                continue
            self._eof = not chunk
            self._pending += self._decoder.decode(chunk, final=self._eof)
            if self._eof:
                logger.info("stdin closed: shutting down")
                if self._on_eof is not None:
                    self._on_eof()


@contextmanager
def claimed_stdin() -> Iterator[int]:
    """Move the wire off fd 0 to a private descriptor; fd 0 reads /dev/null meanwhile.

    As the SDK does for its own reader: a child process or library that reads stdin then
    sees EOF instead of eating protocol messages.
    """
    import fcntl  # POSIX only; the caller checks the platform first

    private = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    devnull = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(devnull, 0)
    finally:
        os.close(devnull)
    try:
        yield private
    finally:
        os.dup2(private, 0)
        os.close(private)
