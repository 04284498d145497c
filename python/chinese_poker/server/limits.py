"""Every limit and default of the service, defined once (the ``serve`` command registers one
option per `LIMITS` entry, with these bounds and this help), and the bearer-token check."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from pathlib import Path

from .. import _core

#: The environment variable that may hold the bearer token (``--token-file`` wins).
TOKEN_ENV = "CHINESE_POKER_TOKEN"
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8013


@dataclass(frozen=True)
class Limit:
    """One limit: its ``Limits`` field, default, bounds and the help of its option (the core's
    table, ``_core.SERVICE_LIMITS``)."""

    name: str
    default: float
    low: float
    high: float
    help: str

    @property
    def option(self) -> str:
        return "--" + self.name.replace("_", "-")

    @property
    def is_int(self) -> bool:
        return isinstance(self.default, int)


def _limit(name: str, default: float, low: float, high: float, whole: bool, help: str) -> Limit:
    kind = int if whole else float
    return Limit(name, kind(default), kind(low), kind(high), help)


LIMITS: tuple[Limit, ...] = tuple(_limit(*entry) for entry in _core.SERVICE_LIMITS)


@dataclass(frozen=True)
class Limits:
    """The limits a server runs with; the defaults are `LIMITS`'."""

    max_body: int = int(LIMITS[0].default)
    max_hands: int = int(LIMITS[1].default)
    max_samples: int = int(LIMITS[2].default)
    mc_slots: int = int(LIMITS[3].default)
    workers: int = int(LIMITS[4].default)
    read_timeout: float = float(LIMITS[5].default)
    max_connections: int = int(LIMITS[6].default)
    timeout: float = float(LIMITS[7].default)


# the table above and the dataclass name the same limits in the same order
assert tuple(f.name for f in fields(Limits)) == tuple(lim.name for lim in LIMITS)


def read_token(token_file: str | None) -> str | None:
    """The bearer token: the first line of ``token_file``, else ``$CHINESE_POKER_TOKEN``, else
    none (no token: every request is let in). Raises ``ValueError`` for an empty token, from
    the file or the variable: a variable set to nothing is a deploy secret gone missing, not a
    wish for an open server."""
    if token_file is not None:
        text = Path(token_file).read_text(encoding="utf-8").strip()
        if not text:
            raise ValueError(f"{token_file!r} holds no token")
        return text
    if TOKEN_ENV not in os.environ:
        return None
    token = os.environ[TOKEN_ENV].strip()
    if not token:
        raise ValueError(f"${TOKEN_ENV} is set but empty; unset it to serve without a token")
    return token


def authorized(header: str | None, token: str | None) -> bool:
    """Whether an ``Authorization`` header carries ``token``: the HTTP front's own check (the
    scheme's name case-insensitive, the token compared in constant time)."""
    return token is None or _core.bearer_matches(header or "", token)
