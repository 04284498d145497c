"""The HTTP service: the extension's HTTP front (hyper, in Rust) answers the operations, the
token, the limits, the metrics, gzip and CORS with no Python on a request's path; this module
gives it the pages a person reads (``/``, ``/docs``, ``/openapi.json``, the sign-in), starts it
and stops it on a signal."""

from __future__ import annotations

import json
import os
import signal
import sys
import urllib.parse
from collections.abc import Callable, Sequence
from typing import Any

from .. import _core
from . import ops, page
from .limits import Limits
from .schema import openapi

HTML = "text/html; charset=utf-8"
PageAnswer = tuple[int, str, list[tuple[str, str]], bytes]


def _pages(limits: Limits, token: str | None) -> Callable[[str, str, str, bytes], PageAnswer]:
    """The pages' answers, by route name (the front's `ROUTES`)."""
    version = _core.__version__

    def html(
        text: str, status: int = 200, headers: list[tuple[str, str]] | None = None
    ) -> PageAnswer:
        return status, HTML, headers or [], text.encode()

    def answer(route: str, method: str, query: str, body: bytes) -> PageAnswer:
        if route == "openapi":
            text = json.dumps(openapi(version, limits), ensure_ascii=False)
            return 200, "application/json", [], text.encode()
        if route == "docs":
            return html(page.docs_page(openapi(version, limits)))
        if route == "page":
            return html(page.solve_page(dict(urllib.parse.parse_qsl(query))))
        if route == "sign_in":  # a page asked for without the token: the form
            return html(page.login_page(), 401)
        if method == "GET":  # /login
            return html(page.login_page())
        given = urllib.parse.parse_qs(body.decode("utf-8", "replace")).get("token", [""])[0]
        if token is None or not _core.token_matches(given, token):
            return html(page.login_page(wrong=token is not None), 401)
        cookie = f"{_core.TOKEN_COOKIE}={given}; HttpOnly; Path=/; SameSite=strict"
        return html("", 303, [("Location", "/"), ("Set-Cookie", cookie)])

    return answer


class _Terminated(Exception):
    """SIGTERM arrived: the server stops gracefully, then the process dies by the signal."""


def serve(
    limits: Limits,
    token: str | None,
    *,
    host: str,
    port: int,
    cors_origins: Sequence[str] = (),
    access_log: bool = False,
    log_errors: bool = True,
    announce: Callable[[str, int], None] | None = None,
) -> None:
    """Serves until SIGTERM or Ctrl-C, then finishes the requests in flight and dies by that
    signal (status 143 or 130 in a shell), as a server sent a signal does."""
    server = _core.HttpServer(
        host=host,
        port=port,
        token=token,
        cors_origins=list(cors_origins),
        access_log=access_log,
        log_errors=log_errors,
        read_timeout=limits.read_timeout,
        timeout=limits.timeout,
        max_connections=limits.max_connections,
        max_body=limits.max_body,
        workers=limits.workers,
        version=_core.__version__,
    )
    if announce is not None:
        announce(*server.address())

    def terminated(signum: int, frame: Any) -> None:
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, terminated)
    caught = None
    try:
        server.serve(ops.new_service(limits), _pages(limits, token))
    except _Terminated:
        caught = signal.SIGTERM
    except KeyboardInterrupt:
        caught = signal.SIGINT
    finally:
        signal.signal(signal.SIGTERM, previous)
    if caught is not None:
        sys.stderr.flush()
        signal.signal(caught, signal.SIG_DFL)
        os.kill(os.getpid(), caught)
