"""The HTTP service: a Starlette app whose routes hand each request's bytes to the core's
service (`ops`) on a bounded thread pool (the extension releases the GIL while it reads,
solves and writes, and the event loop never solves), and send the answer's bytes. Every
answer, error or not, is counted in `metrics`; every error is the one JSON shape of `errors`,
never a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from .. import _core
from . import ops, page
from .errors import ApiError
from .limits import Limits, authorized
from .metrics import CONTENT_TYPE, Metrics
from .schema import JSON, openapi

log = logging.getLogger("chinese_poker.server")
#: Answers at least this long are gzipped for a client that accepts it (bytes).
GZIP_MIN = 1024
#: The cookie a browser signed in with the token carries (the pages only; HttpOnly, SameSite).
TOKEN_COOKIE = "chinese_poker_token"
Handler = Callable[[Request], Awaitable[Response]]


def _dumps(data: JSON) -> bytes:
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
    except UnicodeEncodeError:  # text with a lone surrogate (echoed from a request) as \ud800
        return json.dumps(data, separators=(",", ":")).encode()


def _error(e: ApiError) -> Response:
    headers = {"unauthorized": {"WWW-Authenticate": "Bearer"}, "busy": {"Retry-After": "1"}}.get(
        e.code
    )
    return Response(_dumps(e.to_dict()), e.status, headers, "application/json")


class Service:
    """What the routes share: the limits, the token, the worker pool, the Monte Carlo slots and
    the metrics."""

    def __init__(self, limits: Limits, token: str | None) -> None:
        self.limits = limits
        self.token = token
        self.pool = self._new_pool()
        self.core = ops.new_service(limits)  # its Monte Carlo slots are the core's
        self.metrics = Metrics()

    def _new_pool(self) -> ThreadPoolExecutor:
        return ThreadPoolExecutor(self.limits.workers, thread_name_prefix="chinese-poker")

    def start(self) -> None:
        """A fresh worker pool for a new lifespan (an app may be started, stopped and started
        again, as test clients do)."""
        self.pool.shutdown(wait=False)
        self.pool = self._new_pool()

    async def body_bytes(self, request: Request) -> bytes:
        """The request's body, read up to ``max_body`` bytes (413 beyond)."""
        limit = self.limits.max_body
        length = request.headers.get("content-length", "")
        too_large = ApiError("too_large", f"the request body is larger than {limit} bytes")
        if length.isdigit() and int(length) > limit:
            raise too_large
        chunks, size = [], 0
        try:
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise too_large
                chunks.append(chunk)
        except ClientDisconnect:  # the client hung up mid-body: nobody to answer, no bug
            raise ApiError("client_closed", "the client closed the connection") from None
        return b"".join(chunks)

    async def run(
        self,
        work: Callable[[threading.Event], Any],
        seconds: float,
        request: Request | None = None,
    ) -> Any:
        """``work(cancel)`` on the pool, answered within ``seconds`` (504 after). Work still
        waiting in the queue by then is skipped; work started is cancelled (``cancel`` set: a
        Monte Carlo solve stops within about 20 ms, and gives back its slot) when the deadline
        passes or the client of ``request`` leaves."""
        deadline = time.monotonic() + seconds
        cancel = threading.Event()

        def job() -> Any:
            if time.monotonic() > deadline or cancel.is_set():
                raise TimeoutError
            return work(cancel)

        future: Future[Any] = self.pool.submit(job)
        waiting = asyncio.wrap_future(future)
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ApiError(
                        "timeout", f"the request took longer than its time limit of {seconds:g} s"
                    )
                done, _ = await asyncio.wait({waiting}, timeout=min(left, _CLIENT_POLL))
                if done:
                    return waiting.result()
                if request is not None and await request.is_disconnected():
                    raise ApiError("client_closed", "the client closed the connection")
        finally:
            if not waiting.done():
                cancel.set()
                if not future.cancel():  # started: it stops at its next check, then frees
                    await asyncio.wait({waiting}, timeout=_STOP_GRACE)  # its slot
            if waiting.done() and not waiting.cancelled():
                waiting.exception()  # seen: a cancelled job's error is no news


#: How often a request waiting for its work looks whether its client left (seconds).
_CLIENT_POLL = 0.25
#: How long an answer waits for cancelled work to stop (a Monte Carlo solve stops within about
#: 20 ms), so that its slot is free when the answer leaves.
_STOP_GRACE = 1.0


def create_app(
    limits: Limits | None = None,
    token: str | None = None,
    cors_origins: Sequence[str] = (),
) -> Starlette:
    """The service's ASGI app (``uvicorn.run(create_app())`` or ``chinese-poker serve``)."""
    service = Service(limits or Limits(), token)
    lim = service.limits
    version = _core.__version__

    def route(name: str, handler: Handler, *, auth: bool = True, page_: bool = False) -> Handler:
        # page_: a page a browser opens, which may carry the token in the sign-in cookie
        async def endpoint(request: Request) -> Response:
            start, code = time.perf_counter(), None
            try:
                header = request.headers.get("authorization")
                signed_in = page_ and authorized(
                    f"Bearer {request.cookies.get(TOKEN_COOKIE, '')}", service.token
                )
                if auth and not (signed_in or authorized(header, service.token)):
                    if page_:  # a browser: the sign-in form, not JSON
                        service.metrics.observe(name, 401, 0.0, "unauthorized")
                        return HTMLResponse(page.login_page(), 401)
                    raise ApiError(
                        "unauthorized", "this server needs 'Authorization: Bearer TOKEN'"
                    )
                response: Response = await handler(request)
            except ApiError as e:
                code, response = e.code, _error(e)
            except Exception:  # a bug: logged here, one line to the client
                log.exception("internal error on %s", name)
                code, response = "internal", _error(ApiError("internal", "internal error"))
            service.metrics.observe(name, response.status_code, time.perf_counter() - start, code)
            return response

        return endpoint

    async def answer(op: str, body: bytes, request: Request | None = None) -> Response:
        """The core's answer to ``body``, an ``op`` request, worked out on the pool."""
        status, out, code, hands = await service.run(
            lambda cancel: service.core.answer(op, body, cancel), lim.timeout, request
        )
        if code is not None:  # the route counts it and adds its headers
            raise ops.error_of(out)
        if hands is not None:
            service.metrics.hands.labels(hands[0]).inc(hands[1])
        return Response(out, status, media_type="application/json")

    async def solve(request: Request) -> Response:
        return await answer("solve", await service.body_bytes(request), request)

    def posted(op: str) -> Handler:
        async def handler(request: Request) -> Response:
            return await answer(op, await service.body_bytes(request))

        return handler

    async def rules(request: Request) -> Response:
        return await answer("rules", b"{}")

    async def rule_set(request: Request) -> Response:
        return await answer("rules", _dumps({"name": request.path_params["name"]}))

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok", "version": version})

    async def metrics(request: Request) -> Response:
        return Response(service.metrics.text(), media_type=CONTENT_TYPE)

    async def openapi_json(request: Request) -> Response:
        return JSONResponse(openapi(version, lim))

    async def docs(request: Request) -> Response:
        return HTMLResponse(page.docs_page(openapi(version, lim)))

    async def index(request: Request) -> Response:
        query = dict(request.query_params)
        text = await service.run(lambda _: page.solve_page(query).encode(), lim.timeout)
        return HTMLResponse(text)

    async def login_form(request: Request) -> Response:
        return HTMLResponse(page.login_page())

    async def login(request: Request) -> Response:
        """The sign-in form's post: the token, checked, kept in an HttpOnly cookie."""
        body = (await service.body_bytes(request)).decode("utf-8", "replace")
        given = urllib.parse.parse_qs(body).get("token", [""])[0]
        if service.token is None or not authorized(f"Bearer {given}", service.token):
            return HTMLResponse(page.login_page(wrong=service.token is not None), 401)
        response = Response(status_code=303, headers={"Location": "/"})
        response.set_cookie(
            TOKEN_COOKIE,
            given,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
        )
        return response

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        code = {404: "not_found", 405: "method_not_allowed"}.get(status, "internal")
        service.metrics.observe("other", status, 0.0, code)
        response = _error(
            ApiError(code, f"{request.method} {request.url.path}: {code.replace('_', ' ')}")
        )
        allow = (exc.headers or {}).get("Allow") if isinstance(exc, HTTPException) else None
        if allow:  # a 405 says which methods the path takes (RFC 9110)
            response.headers["Allow"] = allow
        return response

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        service.start()
        yield
        service.pool.shutdown(wait=True)

    routes = [
        Route("/v1/solve", route("solve", solve), methods=["POST"]),
        Route("/v1/settle", route("settle", posted("settle")), methods=["POST"]),
        Route("/v1/naturals", route("naturals", posted("naturals")), methods=["POST"]),
        Route("/v1/rules", route("rules", rules), methods=["GET"]),
        Route("/v1/rules/{name}", route("rule_set", rule_set), methods=["GET"]),
        Route("/healthz", route("healthz", healthz, auth=False), methods=["GET"]),
        Route("/metrics", route("metrics", metrics), methods=["GET"]),
        Route("/openapi.json", route("openapi", openapi_json), methods=["GET"]),
        Route("/docs", route("docs", docs, page_=True), methods=["GET"]),
        Route("/", route("page", index, page_=True), methods=["GET"]),
        Route("/login", route("login", login_form, auth=False), methods=["GET"]),
        Route("/login", route("login", login, auth=False), methods=["POST"]),
    ]
    # compressed for clients that ask (Accept-Encoding: gzip): a 256-hand answer shrinks ~10x
    middleware = [Middleware(GZipMiddleware, minimum_size=GZIP_MIN)]
    if cors_origins:
        middleware.append(
            Middleware(
                CORSMiddleware,
                allow_origins=list(cors_origins),
                allow_methods=["GET", "POST"],
                allow_headers=["authorization", "content-type"],
            )
        )
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: not_found},
        lifespan=lifespan,
    )
    app.state.service = service
    return app
