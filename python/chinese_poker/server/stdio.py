"""``chinese-poker serve --stdio``: JSON lines in and out. Each line is a request of the HTTP
shape plus ``"op"`` (a key of `ops.OPS`) and an optional ``"id"`` echoed back; each is
answered on one line, flushed, as soon as it is read. A bad line is answered with an error line
(``{"id": ..., "error": {"code", "message", "field", "type"}}``) and the stream goes on."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

from . import ops
from .errors import ApiError, invalid
from .limits import Limits
from .schema import JSON, json_type

OP = "op"
ID = "id"


def answer(line: bytes, limits: Limits) -> JSON:
    """The answer to one request line (an error answer rather than an exception)."""
    ident: Any = None
    try:
        if len(line) > limits.max_body:
            raise ApiError("too_large", f"the request line is longer than {limits.max_body} bytes")
        try:
            data = json.loads(line)
        except (ValueError, RecursionError) as e:
            raise ApiError("bad_json", f"the request line is not JSON: {e}") from None
        if not isinstance(data, dict):
            raise invalid(None, f"expected a JSON object, got {json_type(data)}")
        ident = data.pop(ID, None)
        op = data.pop(OP, None)
        if not isinstance(op, str) or op not in ops.OPS:
            raise invalid(OP, f"expected one of {', '.join(ops.OPS)}, got {op!r}")
        result = ops.run(op, data, limits)
    except ApiError as e:
        result = e.to_dict()
    return {ID: ident, **result} if ident is not None else result


def lines(stdin: IO[bytes], limit: int) -> Iterator[bytes]:
    """The lines of ``stdin``, each read at most ``limit + 1`` bytes at a time: a longer line is
    given as its first ``limit + 1`` bytes (which ``answer`` refuses as too large) and the rest
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


def serve(stdin: IO[bytes], stdout: IO[str], limits: Limits) -> None:
    """Answers ``stdin`` line by line until it closes."""
    for raw in lines(stdin, limits.max_body):
        line = raw.strip()
        if not line:
            continue
        result = answer(line, limits)
        try:
            text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
            text.encode()
        except UnicodeEncodeError:  # a lone surrogate echoed from the request: escaped
            text = json.dumps(result, separators=(",", ":"))
        stdout.write(text + "\n")
        stdout.flush()
