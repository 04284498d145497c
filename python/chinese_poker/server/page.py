"""The two HTML pages the service serves, with nothing loaded from elsewhere: ``/``, where a
person types 13 cards and sees the best setting drawn as cards with its value and the next best
plays (the layouts of `chinese_poker.display`), and ``/docs``, the OpenAPI document as a
readable page."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from .. import _core
from ..display import html as layout
from ..solver import Solver
from .schema import DEFAULT_PLAYERS, DEFAULT_RULES, DEFAULT_TOP_K

_STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:60em;margin:2em auto;padding:0 1em}"
    "input[type=text]{width:28em;font-family:monospace}.error{color:#c8102e}"
    "pre{background:#f6f6f6;padding:.5em;overflow:auto}"
)
EXAMPLE = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"


def _page(title: str, body: str) -> str:
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}"
        f"</title><style>{_STYLE}</style></head><body><h1>{escape(title)}</h1>{body}"
        "</body></html>"
    )


def _options(values: Any, chosen: object) -> str:
    return "".join(
        f"<option{' selected' if v == chosen else ''}>{escape(str(v))}</option>" for v in values
    )


def form(hand: str, rules: str, players: int, result: str) -> str:
    """The page: the form, then ``result`` (HTML, already escaped)."""
    body = (
        "<form method='get' action='/'>"
        f"<p><label>13 cards <input type='text' id='hand' name='hand' value='{escape(hand)}' "
        f"placeholder='{EXAMPLE}'></label></p>"
        f"<p><label>rules <select id='rules' name='rules'>"
        f"{_options(_core.PRESET_NAMES, rules)}</select></label> "
        f"<label>players <select id='players' name='players'>"
        f"{_options(range(2, 5), players)}</select></label> "
        "<button id='solve' type='submit'>Solve</button></p></form>"
        f"<div id='result'>{result}</div>"
        "<p><a href='/docs'>API documentation</a> · <a href='/openapi.json'>OpenAPI</a></p>"
    )
    return _page("chinese-poker solver", body)


def solve_page(query: dict[str, str]) -> str:
    """The page for a query (``hand``, ``rules``, ``players``): the best setting or the error."""
    from ..exceptions import ChinesePokerError

    hand = query.get("hand", "").strip()
    rules = query.get("rules", DEFAULT_RULES)
    players_text = query.get("players", str(DEFAULT_PLAYERS))
    # only ASCII digits: "²" is a digit to str.isdigit() but not to int()
    players = (
        int(players_text)
        if players_text.isascii() and players_text.isdigit() and len(players_text) < 4
        else DEFAULT_PLAYERS
    )
    if not hand:
        return form(hand, rules, players, f"<p>Type 13 cards, e.g. <code>{EXAMPLE}</code>.</p>")
    try:
        solution = Solver(rules, players).solve(hand, DEFAULT_TOP_K)
    except ChinesePokerError as e:
        return form(hand, rules, players, f"<p class='error'>{escape(str(e))}</p>")
    return form(hand, rules, players, layout(solution))


def login_page(wrong: bool = False) -> str:
    """The token form a browser signs in with when the server has a token: the pages (``/``,
    ``/docs``) then take it from a cookie, as programs take it from ``Authorization``."""
    note = "<p class='error'>That is not this server's token.</p>" if wrong else ""
    return _page(
        "chinese-poker solver",
        note + "<form method='post' action='/login'><p><label>token "
        "<input type='password' id='token' name='token' autocomplete='current-password'></label> "
        "<button id='login' type='submit'>Sign in</button></p></form>",
    )


def docs_page(document: dict[str, Any]) -> str:
    """The OpenAPI document as a page: each path and method, what it takes and answers."""
    parts = [f"<p>{escape(document['info']['description'])}</p>"]
    for path, methods in document["paths"].items():
        for method, op in methods.items():
            parts.append(f"<h2><code>{method.upper()} {escape(path)}</code></h2>")
            parts.append(f"<p>{escape(op['summary'])}</p>")
            body = op.get("requestBody")
            if body:
                ref = body["content"]["application/json"]["schema"]["$ref"]
                parts.append(f"<p>request: <a href='#{ref.rsplit('/', 1)[1]}'>{ref}</a></p>")
            codes = ", ".join(f"{code} {r['description']}" for code, r in op["responses"].items())
            parts.append(f"<p>answers: {escape(codes)}</p>")
    for name, schema in document["components"]["schemas"].items():
        parts.append(f"<h2 id='{escape(name)}'>{escape(name)}</h2>")
        parts.append(f"<pre>{escape(json.dumps(schema, indent=2))}</pre>")
    return _page(document["info"]["title"], "".join(parts))
