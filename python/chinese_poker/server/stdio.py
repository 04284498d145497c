"""``chinese-poker serve --stdio``: JSON lines in and out. Each line is a request of the HTTP
shape plus ``"op"`` (one of `ops.OPS`) and an optional ``"id"`` echoed back; each is answered on
one line, flushed, as soon as it is read. A bad line is answered with an error line
(``{"id": ..., "error": {"code", "message", "field", "type"}}``) and the stream goes on. The
core's service reads each line and writes its answer (`ops`); this loop only reads and writes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

from . import ops
from .limits import Limits


def answer(line: bytes, limits: Limits) -> Any:
    """The answer to one request line, as data (an error answer rather than an exception)."""
    return json.loads(ops.service(limits).answer_line(line))


def lines(stdin: IO[bytes], limit: int) -> Iterator[bytes]:
    """The lines of ``stdin``, each read at most ``limit + 1`` bytes at a time: a longer line is
    given as its first ``limit + 1`` bytes (which the service refuses as too large) and the rest
    of it is read and dropped in pieces, so no line costs more memory than the limit."""
    while True:
        line = stdin.readline(limit + 1)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            while True:  # skip to the end of this line
                rest = stdin.readline(limit + 1)
                if not rest or rest.endswith(b"\n"):
                    break
        yield line


def serve(stdin: IO[bytes], stdout: IO[bytes], limits: Limits) -> None:
    """Answers ``stdin`` line by line until it closes."""
    core = ops.new_service(limits)
    for raw in lines(stdin, limits.max_body):
        line = raw.strip()
        if not line:
            continue
        stdout.write(core.answer_line(line) + b"\n")
        stdout.flush()
