"""The service's one error answer, ``{"error": {"code", "message", "field", "type"}}`` with its
HTTP status, as Python code sees it (`ops.run` raises it for an error answer of the core's
service, which writes every answer of the HTTP front and the stdio mode), and the mapping of
the package's exceptions onto it for ``solve --jsonl`` (their message unchanged, the field
named from their attributes). No traceback ever reaches an answer."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .. import _core
from ..exceptions import ChinesePokerError

#: Every error code an answer may carry, with its HTTP status (the stdio mode sends the code):
#: the core's table (``chinese_poker::service::CODES``).
CODES: dict[str, int] = dict(_core.ERROR_CODES)


class ApiError(Exception):
    """An answer that is an error: ``code`` (a key of `CODES`), the message, the request
    field it names (``"hands[2]"``, ``"rules.scoop.kind"``, ``None`` for the whole request) and
    the package's exception class where one was raised."""

    def __init__(
        self, code: str, message: str, field: str | None = None, kind: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.kind = kind

    @property
    def status(self) -> int:
        return CODES[self.code]

    def to_dict(self) -> dict[str, Any]:
        return {
            "error": {
                "code": self.code,
                "message": self.message,
                "field": self.field,
                "type": self.kind,
            }
        }


def _join(base: str | None, name: str) -> str:
    if name.startswith("["):
        return f"{base}{name}" if base else name
    return f"{base}.{name}" if base else name


def from_library(
    e: ChinesePokerError, base: str | None, names: Mapping[str, str] | None = None
) -> ApiError:
    """The package's exception ``e`` raised for the request field ``base``, as a 422 with the
    exception's own message. Its attributes say which part of ``base``: a rule-set ``field``,
    the ``line`` of a batch of hands, the ``player`` (and ``row``) of a round, the call
    ``argument`` (one of the request's field ``names``, or a part of ``base``). Where the
    exception carries none, a message that starts with one of the request's field ``names``
    (``"dealer: expected ..."``, the key) names that field (the value, its path in the
    request)."""
    field: str | None
    if e.field is not None:
        field = _join(base, e.field)
    elif e.line is not None:
        field = _join(base, f"[{e.line}]")
    elif e.player is not None or e.row is not None:
        field = _join(base, f"[{e.player}]") if e.player is not None else base or ""
        if e.row is not None:
            field = _join(field or None, e.row)
    elif e.argument is not None:
        head = re.split(r"[\[.]", e.argument, maxsplit=1)[0]  # "bankrolls" of "bankrolls[0]"
        if names and head in names:
            field = names[head] + e.argument[len(head) :]
        else:
            field = _join(base, e.argument)
    else:
        head = str(e).split(":", 1)[0].strip()
        field = (names or {}).get(head) or base
    return ApiError("invalid_input", str(e), field, type(e).__name__)
