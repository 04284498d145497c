"""The service's one error answer, ``{"error": {"code", "message", "field", "type"}}`` with its
HTTP status, as Python code sees it: `ops.run` raises it for an error answer of the core's
service, which writes every answer of the HTTP front, the stdio mode and ``solve --jsonl``'s
bad lines, and names the field. No traceback ever reaches an answer."""

from __future__ import annotations

from typing import Any

from .. import _core

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
