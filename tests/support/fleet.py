"""Real fleet parts for tests and ``make bench``: a redis-server, an HAProxy, server replicas over HTTP.

Each runs as a subprocess on 127.0.0.1 on a free port and is stopped when its block exits.
The binaries come from the system (Debian packages ``redis-server`` and ``haproxy``, which
``bash .ci/run`` installs); ``REDIS_SERVER_BIN`` / ``HAPROXY_BIN`` point elsewhere.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from support.servers import child_environment, free_port

INSTALL_HINT = "install it with `apt-get install -y redis-server haproxy` (bash .ci/run does)"


def binary(name: str, env_var: str) -> str | None:
    """The path of a system binary, or None when this machine has none."""
    explicit = os.environ.get(env_var)
    if explicit:
        return explicit if Path(explicit).is_file() else None
    return shutil.which(name) or (f"/usr/sbin/{name}" if Path(f"/usr/sbin/{name}").is_file() else None)


def missing_binaries() -> list[str]:
    """Which of the fleet tests' system binaries are absent."""
    wanted = {"redis-server": "REDIS_SERVER_BIN", "haproxy": "HAPROXY_BIN"}
    return [name for name, var in wanted.items() if binary(name, var) is None]


def _wait(
    check: Callable[[], bool], what: str, timeout: float, proc: subprocess.Popen[bytes] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode} before it was ready")
        if check():
            return
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} was not ready within {timeout:g} s")
        time.sleep(0.05)


@dataclass
class RedisServer:
    """A redis-server subprocess (no persistence) that can be stopped and started again on its port."""

    port: int = field(default_factory=free_port)
    password: str | None = None
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def _ping(self) -> bool:
        import redis

        try:
            return bool(redis.Redis(host="127.0.0.1", port=self.port, password=self.password).ping())
        except redis.RedisError:
            return False

    def start(self) -> None:
        exe = binary("redis-server", "REDIS_SERVER_BIN")
        if exe is None:
            raise RuntimeError(f"redis-server not found: {INSTALL_HINT}")
        args = [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        args += ["--daemonize", "no", "--loglevel", "warning", "--dir", tempfile.gettempdir()]
        if self.password:
            args += ["--requirepass", self.password]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        _wait(self._ping, "redis-server", 10, self.proc)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


@contextmanager
def redis_server(password: str | None = None) -> Iterator[RedisServer]:
    server = RedisServer(password=password)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Replica:
    """One server replica: ``python -m <package> --transport http --stateless`` on 127.0.0.1."""

    package: str
    env: Mapping[str, str]
    args: Sequence[str] = ()
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    """Where its stderr goes (None: the test's own stderr)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return f"{self.base}/mcp"

    def start(self) -> None:
        args = [sys.executable, "-m", self.package, "--transport", "http", "--stateless"]
        args += ["--port", str(self.port), *self.args]
        stderr = self.log.open("ab") if self.log is not None else None
        try:
            self.proc = subprocess.Popen(
                args, env=child_environment(self.env), stdin=subprocess.DEVNULL, stderr=stderr
            )
        finally:
            if stderr is not None:
                stderr.close()

    def wait_ready(self, timeout: float = 90) -> None:
        def ready() -> bool:
            try:
                return httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200
            except httpx.TransportError:
                return False

        _wait(ready, f"{self.package} on port {self.port}", timeout, self.proc)

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def stop_all(started: Sequence[Replica]) -> None:
    """SIGTERM every replica first, then wait for each: their graceful shutdowns overlap."""
    for replica in started:
        if replica.proc is not None and replica.proc.poll() is None:
            replica.proc.terminate()
    for replica in started:
        replica.stop()


@contextmanager
def replicas(
    package: str, envs: Sequence[Mapping[str, str]], args: Sequence[str] = ()
) -> Iterator[list[Replica]]:
    """Start one replica per environment (in parallel: each pays its own start-up), stop them all after."""
    started = [Replica(package, env, args) for env in envs]
    try:
        for replica in started:
            replica.start()
        for replica in started:
            replica.wait_ready()
        yield started
    finally:
        stop_all(started)


@dataclass
class LoadBalancer:
    """HAProxy, round robin over the replicas, taking out one whose ``/healthz`` stops answering."""

    backends: Sequence[Replica]
    port: int = field(default_factory=free_port)
    stats_port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    config: Path | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def served(self) -> dict[str, int]:
        """Requests each replica has answered (``r0``, ``r1``, ...), from HAProxy's statistics."""
        rows = httpx.get(f"http://127.0.0.1:{self.stats_port}/stats;csv", timeout=5).text.splitlines()
        header = rows[0].lstrip("# ").split(",")
        counts = {}
        for row in rows[1:]:
            cells = dict(zip(header, row.split(","), strict=False))
            if cells.get("pxname") == "replicas" and cells.get("svname", "").startswith("r"):
                counts[cells["svname"]] = int(cells.get("stot") or 0)
        return counts

    def render(self) -> str:
        servers = "\n".join(
            f"    server r{i} 127.0.0.1:{b.port} check inter 1s fall 2 rise 1"
            for i, b in enumerate(self.backends)
        )
        return f"""global
    maxconn 4096

defaults
    mode http
    timeout connect 5s
    timeout client 300s
    timeout server 300s
    option http-server-close

frontend mcp
    bind 127.0.0.1:{self.port}
    default_backend replicas

backend replicas
    balance roundrobin
    option httpchk GET /healthz
{servers}

listen stats
    bind 127.0.0.1:{self.stats_port}
    stats enable
    stats uri /stats
"""

    def start(self) -> None:
        exe = binary("haproxy", "HAPROXY_BIN")
        if exe is None:
            raise RuntimeError(f"haproxy not found: {INSTALL_HINT}")
        handle, name = tempfile.mkstemp(prefix="haproxy-", suffix=".cfg")
        os.close(handle)
        self.config = Path(name)
        self.config.write_text(self.render())
        self.proc = subprocess.Popen([exe, "-db", "-f", str(self.config)], stdin=subprocess.DEVNULL)

        def ready() -> bool:
            try:
                return httpx.get(f"http://127.0.0.1:{self.port}/healthz", timeout=1).status_code == 200
            except httpx.TransportError:
                return False

        _wait(ready, "haproxy", 15, self.proc)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        if self.config is not None:
            self.config.unlink(missing_ok=True)


@contextmanager
def load_balancer(backends: Sequence[Replica]) -> Iterator[LoadBalancer]:
    lb = LoadBalancer(backends)
    lb.start()
    try:
        yield lb
    finally:
        lb.stop()
