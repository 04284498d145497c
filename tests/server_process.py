"""A ``chinese-poker serve`` subprocess on a free localhost port, for the server tests."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("CHINESE_POKER_TOKEN", None)
    env.update(extra or {})
    return env


class Server:
    def __init__(self, proc: subprocess.Popen[str], url: str) -> None:
        self.proc = proc
        self.url = url

    def client(self, token: str | None = None, timeout: float = 60) -> httpx.Client:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=timeout)

    def stop(self) -> str:
        """SIGTERM, then wait; the rest of stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            _, err = self.proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return err


def start(*options: str, env: dict[str, str] | None = None) -> Server:
    """Starts the server on a free port of 127.0.0.1 and waits until it answers /healthz."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "chinese_poker", "serve", "--port", "0", *options],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(env),
    )
    assert proc.stderr is not None
    line = proc.stderr.readline()
    match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
    if match is None:
        proc.kill()
        raise AssertionError(f"the server did not start: {line}{proc.stderr.read()}")
    server = Server(proc, match.group(1))
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(server.url + "/healthz", timeout=5).status_code == 200:
                return server
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            server.stop()
            raise AssertionError("the server never answered /healthz")
        time.sleep(0.05)


@contextmanager
def running(*options: str, env: dict[str, str] | None = None) -> Iterator[Server]:
    server = start(*options, env=env)
    try:
        yield server
    finally:
        server.stop()
