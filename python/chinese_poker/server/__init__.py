"""The solver as a service for game servers and bots in any language
([serve guide](https://chinese-poker.github.io/chinese-poker/guide/serve/)): an HTTP JSON API
(`chinese-poker serve`: the extension's HTTP front answers the operations, `http` gives it the
pages and starts it) and a JSON-lines mode on standard input and output
(``chinese-poker serve --stdio``).

One job per module: `limits` (every limit and default, the token), `schema` (the request and
response models of the OpenAPI document), `errors` (the error answers Python gives itself, and
the mapping of the package's exceptions for ``solve --jsonl``), `ops` (the core's service, which
reads, checks, solves and answers every request, and the tables it plays), `http` (the pages
and the start and stop of the HTTP server), `stdio`, `page` (the HTML pages)."""

from __future__ import annotations

from .limits import LIMITS, Limits

__all__ = ["LIMITS", "Limits"]
