"""The solver as a service for game servers and bots in any language (the ``[server]`` extra;
[serve guide](https://chinese-poker.github.io/chinese-poker/guide/serve/)): an HTTP JSON API
(`create_app()`, run by ``chinese-poker serve``) and a JSON-lines mode on standard input and output
(``chinese-poker serve --stdio``).

One job per module: `limits` (every limit and default, the token), `schema` (the
request and response models and the OpenAPI document), `errors` (the error answer and the
mapping of the package's exceptions), `ops` (the operations), `app` (the routes),
`metrics`, `stdio`, `page` (the HTML pages)."""

from __future__ import annotations

from .limits import LIMITS, Limits

__all__ = ["LIMITS", "Limits", "create_app"]


def create_app(*args: object, **kwargs: object) -> object:
    """`chinese_poker.server.app.create_app()` (imports Starlette on first use)."""
    from .app import create_app as create

    return create(*args, **kwargs)  # type: ignore[arg-type]
