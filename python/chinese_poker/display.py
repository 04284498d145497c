"""How the package's objects read: the text of ``str()`` and the HTML Jupyter shows
(``_repr_html_``), written once here for cards, ranks, settings, solutions, settlements, batch
solutions, simulations, duels and tables.

Rows are always shown in one card order, `ordered()` (the core's ``display_order``): cards of
a rank held more often first (quads, trips, pairs), then higher ranks, a wheel straight from its
five (``5 4 3 2 A``), suits from spades down; so a row reads the way its rank is described. That
order is for display only: settings keep their cards in the order they were set, as data
(``to_dict()``, arrays, the evaluable ``repr`` of a [`Setting`][chinese_poker.Setting]).

Seats are ``P0``, ``P1``, ... in every layout, as in ``Settlement.explain()``. The HTML escapes
every piece of text and colours suits (red ♥ ♦, black ♠ ♣) on a white card face, so it reads in
light and dark notebook themes alike.

    >>> import chinese_poker as cp
    >>> from chinese_poker.display import ordered, row_text
    >>> row_text(cp.parse_cards("5s Kh 5h Ks 5d"))
    '5♠ 5♥ 5♦ K♠ K♥'
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core

if TYPE_CHECKING:
    # Seen only by type checkers: every result class imports this module for its layouts, so
    # importing them here would make a circle. The layouts are found by class name (below).
    from ._core import (
        Alternative,
        Card,
        CardSet,
        HandRank,
        Matchup,
        Payment,
        PlayerResult,
        RowResult,
        Settlement,
        Solution,
    )
    from .duels import DuelResult
    from .rules import RuleSet
    from .scoring import Declare, Setting
    from .simulate import PolicySummary, SeatSummary, Simulation
    from .solver import BatchSolution
    from .table import RoundRecord, Table

__all__ = ["Shown", "html", "ordered", "row_text", "seat", "text"]

_ROWS: tuple[str, ...] = _core.ROW_NAMES
_CHOICES: tuple[str, ...] = _core.CHOICE_NAMES
_BATCH_SHOWN = 10  # hands a batch solution lists before "and N more"
_WRAP = 96  # the width long free text (a rule set's description and source) is wrapped to


# -- pieces ------------------------------------------------------------------------------------


def ordered(cards: Iterable[Card | str | int] | CardSet | str) -> tuple[Card, ...]:
    """The cards of one row in the display order (see the module docstring)."""
    return tuple(_core.display_order(cards))


def row_text(cards: Iterable[Card | str | int] | CardSet | str) -> str:
    """``"5♠ 5♥ 5♦ K♠ K♥"``: a row in the display order, with suit symbols."""
    return " ".join(c.pretty() for c in ordered(cards))


def seat(i: int) -> str:
    """A seat's label in every layout, as ``Settlement.explain()`` writes it."""
    return f"P{i}"


def _signed(v: float, digits: int = 0) -> str:
    if digits == 0 and float(v).is_integer():
        return f"{int(v):+d}" if v != 0 else "0"
    return f"{v:+.{digits}f}"


def _setting_rows(s: Setting) -> list[str]:
    return [row_text(r) for r in s.rows()]


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: Iterable[int] = ()) -> str:
    """Monospaced columns; ``right``: indices of right-aligned (number) columns."""
    right = set(right)
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        out = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(out).rstrip()

    return "\n".join([line(headers), *(line(r) for r in rows)])


# -- HTML pieces -------------------------------------------------------------------------------

_CARD_STYLE = (
    "display:inline-block;min-width:1.8em;margin:0 1px;border:1px solid #aaa;border-radius:3px;"
    "background:#fff;font-family:monospace;text-align:center;color:"
)
_RED = "#c8102e"
_BLACK = "#111"
_CELL = "padding:2px 8px;text-align:left"


def card_html(c: Card) -> str:
    """One card: its symbol on a white face, hearts and diamonds red, spades and clubs black."""
    colour = _RED if c.suit in (1, 2) else _BLACK
    return (
        f'<span class="cp-card" title="{escape(str(c))}" style="{_CARD_STYLE}{colour}">'
        f"{escape(c.pretty())}</span>"
    )


def row_html(cards: Iterable[Card | str | int] | CardSet | str) -> str:
    """A row of cards in the display order."""
    # one line whatever the width: a row wrapped between its cards reads as two rows
    return (
        '<span class="cp-row" style="white-space:nowrap">'
        + "".join(card_html(c) for c in ordered(cards))
        + "</span>"
    )


def _cell(v: object) -> str:
    return escape(str(v))


def _html_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], caption: str | None = None
) -> str:
    """A table of cells that are already HTML (escape text with `_cell()` first)."""
    head = "".join(f'<th style="{_CELL}">{escape(h)}</th>' for h in headers)
    body = "".join(
        "<tr>" + "".join(f'<td style="{_CELL}">{c}</td>' for c in r) + "</tr>" for r in rows
    )
    # a caption is as wide as its table: a narrow grid would squeeze it into a column
    cap = (
        f"<caption style='text-align:left;white-space:nowrap'>{escape(caption)}</caption>"
        if caption
        else ""
    )
    return (
        f'<table class="cp-table" style="border-collapse:collapse">{cap}'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def _div(*parts: str) -> str:
    return '<div class="chinese-poker">' + "".join(parts) + "</div>"


def _p(t: str) -> str:
    return f"<p style='margin:4px 0'>{escape(t)}</p>"


def _pre(t: str) -> str:
    return f"<pre style='margin:4px 0'>{escape(t)}</pre>"


# -- cards, ranks, settings --------------------------------------------------------------------


def _setting_text(s: Setting) -> str:
    return "\n".join(f"{name:<7}{row}" for name, row in zip(_ROWS, _setting_rows(s), strict=True))


def _setting_html(s: Setting, ranks: Sequence[HandRank] | None = None) -> str:
    rows = []
    for i, (name, cards) in enumerate(zip(_ROWS, s.rows(), strict=True)):
        cells = [_cell(name), row_html(cards)]
        if ranks is not None:
            cells.append(_cell(ranks[i].describe()))
        rows.append(cells)
    return _html_table(["row", "cards", *(["hand"] if ranks is not None else [])], rows)


def _declare_text(d: Declare) -> str:
    return f"declare {d.natural.replace('_', ' ')}\n{_setting_text(d.setting)}"


def _declare_html(d: Declare) -> str:
    return _div(_p(f"declare {d.natural.replace('_', ' ')}"), _setting_html(d.setting))


# -- solutions ---------------------------------------------------------------------------------


def _value(v: float, se: float | None = None) -> str:
    return f"{v:+.3f}" + (f" ± {se:.3f}" if se else "")


def _alternative_text(a: Alternative) -> str:
    rows = " / ".join(_setting_rows(a.setting))
    return f"{_value(a.value, a.stderr)}  {rows}  ({a.describe()})"


def _alternative_html(a: Alternative) -> str:
    return _div(_p(f"value {_value(a.value, a.stderr)}"), _setting_html(a.setting, a.ranks))


def _solution_html(s: Solution) -> str:
    parts = [_p(s.heading()), _p(s.verdict().rstrip(":")), _setting_html(s.setting, s.ranks)]
    alts = s.alternatives[1:]
    if alts:
        rows = [
            [
                _cell(i),
                _cell(_value(a.value, a.stderr)),
                *(row_html(r) for r in a.setting.rows()),
                _cell(a.describe()),
            ]
            for i, a in enumerate(alts, 2)
        ]
        parts.append(
            _html_table(
                ["#", "value", *_ROWS, "hands"],
                rows,
                f"next best of {s.candidates} candidate settings",
            )
        )
    return _div(*parts)


def _batch_decision(b: BatchSolution, i: int) -> tuple[str, list[list[int]] | None]:
    """Hand ``i``'s decision in words and the rows it plays or declares (none to surrender),
    read from the batch's arrays."""
    choice = _CHOICES[int(b.decisions[i])]
    if choice == "surrender":
        return choice, None
    codes = b.settings[i].tolist()
    rows = [codes[:3], codes[3:8], codes[8:]]
    if choice == "declare":
        return f"declare {b.NATURAL_NAMES[int(b.naturals[i])].replace('_', ' ')}", rows
    return choice, rows


def _batch_rows(b: BatchSolution) -> list[list[str]]:
    out = []
    for i in range(min(len(b), _BATCH_SHOWN)):
        what, setting = _batch_decision(b, i)
        rows = ["–"] * 3 if setting is None else [row_text(r) for r in setting]
        out.append([str(i), what, *rows, f"{float(b.values[i]):+.3f}"])
    return out


def _batch_head(b: BatchSolution) -> str:
    counts = np.bincount(np.asarray(b.decisions, dtype=np.int64), minlength=3)
    parts = ", ".join(f"{int(n):,} {c}" for c, n in zip(_CHOICES, counts, strict=False) if n)
    mean = f", mean value {float(np.mean(b.values)):+.3f}" if len(b) else ""
    return f"{len(b):,} hands ({parts or 'none'}){mean}"


def batch_repr(b: BatchSolution) -> str:
    counts = np.bincount(np.asarray(b.decisions, dtype=np.int64), minlength=3)
    return "BatchSolution(hands={}, play={}, declare={}, surrender={})".format(
        len(b), *(int(n) for n in counts[:3])
    )


def _batch_text(b: BatchSolution) -> str:
    out = [_batch_head(b)]
    if len(b):
        out.append(
            _table(["#", "decision", *_ROWS, "value"], _batch_rows(b), right=(0, 5)),
        )
    if len(b) > _BATCH_SHOWN:
        out.append(f"... and {len(b) - _BATCH_SHOWN:,} more")
    return "\n".join(out)


def _batch_html(b: BatchSolution) -> str:
    rows = []
    for i, r in enumerate(_batch_rows(b)):
        _, setting = _batch_decision(b, i)
        cards = ["–"] * 3 if setting is None else [row_html(c) for c in setting]
        rows.append([_cell(r[0]), _cell(r[1]), *cards, _cell(r[5])])
    parts = [_p(_batch_head(b))]
    if rows:
        parts.append(_html_table(["#", "decision", *_ROWS, "value"], rows))
    if len(b) > _BATCH_SHOWN:
        parts.append(_p(f"... and {len(b) - _BATCH_SHOWN:,} more"))
    return _div(*parts)


# -- settlements -------------------------------------------------------------------------------


def _row_result_text(r: RowResult) -> str:
    if r.winner is None:
        return f"{r.row}: tie"
    notes = " (bonus doubled)" if r.doubled else " (bonus)" if r.bonus else ""
    notes += " (on suits)" if r.suit_break else ""
    return f"{r.row}: {seat(r.winner)} wins {r.value}{notes}"


def _matchup_head(m: Matchup) -> str:
    return (
        f"{seat(m.a)} v {seat(m.b)} ({m.kind}): {_signed(m.points)} for {seat(m.a)}, "
        f"{_signed(-m.points)} for {seat(m.b)}"
    )


def _matchup_text(m: Matchup) -> str:
    lines = [_matchup_head(m)]
    if m.kind in ("rows", "foul"):
        lines += ["  " + _row_result_text(r) for r in m.rows]
    if m.scoop is not None:
        lines.append(f"  scooped by {seat(m.scoop)}")
    if m.sweep_multiplier != 1:
        lines.append(f"  sweep x{m.sweep_multiplier}")
    return "\n".join(lines)


def _matchup_html(m: Matchup) -> str:
    rows = [
        [_cell(r.row), _cell("tie" if r.winner is None else seat(r.winner)), _cell(r.value)]
        for r in m.rows
    ]
    parts = [_p(_matchup_head(m))]
    if m.kind in ("rows", "foul"):
        parts.append(_html_table(["row", "winner", "units"], rows))
    return _div(*parts)


def _payment_text(p: Payment) -> str:
    owed = f" (owed {p.owed})" if p.owed != p.paid else ""
    return f"{seat(p.payer)} pays {seat(p.payee)} {p.paid}{owed}"


def _player_status(p: PlayerResult) -> str:
    if p.natural is not None:
        return f"natural: {p.natural.replace('_', ' ')} ({p.natural_value})"
    return p.status + (", sweeps" if p.sweep else "")


def _player_rows(p: PlayerResult) -> list[str]:
    return ["–"] * 3 if p.setting is None else _setting_rows(p.setting)


def _player_text(p: PlayerResult) -> str:
    rows = " / ".join(_player_rows(p))
    return f"{seat(p.seat)} {_player_status(p)}: {rows}; total {_signed(p.total)}"


def _player_html(p: PlayerResult) -> str:
    head = _p(f"{seat(p.seat)} {_player_status(p)}: total {_signed(p.total)}")
    if p.setting is None:
        return _div(head)
    return _div(head, _setting_html(p.setting, p.ranks))


def _grid(s: Settlement) -> list[list[str]]:
    n = len(s.players)
    return [
        [seat(x), *("·" if x == y else _signed(s.points(x, y)) for y in range(n))] for x in range(n)
    ]


def _settlement_head(s: Settlement) -> str:
    # named only where the cap took something, as explain() does
    capped = ", payments capped by bankrolls" if any(p.paid != p.owed for p in s.payments) else ""
    return f"{len(s.players)} players, dealer {seat(s.dealer)}{capped}"


def _totals_line(s: Settlement) -> str:
    out = "totals: " + ", ".join(f"{seat(i)} {_signed(t)}" for i, t in enumerate(s.totals))
    if s.raw_totals != s.totals:
        out += " (before the cap: " + ", ".join(_signed(t) for t in s.raw_totals) + ")"
    if s.bankrolls_after is not None:
        out += "\nbankrolls after: " + ", ".join(
            f"{seat(i)} {b}" for i, b in enumerate(s.bankrolls_after)
        )
    return out


def _settlement_text(s: Settlement) -> str:
    players = [
        [seat(p.seat), _player_status(p), *_player_rows(p), _signed(p.total)] for p in s.players
    ]
    n = len(s.players)
    return "\n".join(
        [
            _settlement_head(s),
            _table(["seat", "result", *_ROWS, "total"], players, right=(5,)),
            "matchups (points for the seat on the left against the seat above):",
            _table(["", *(seat(i) for i in range(n))], _grid(s), right=range(1, n + 1)),
            _totals_line(s),
        ]
    )


def _settlement_html(s: Settlement) -> str:
    players = []
    for p in s.players:
        cards = ["–"] * 3 if p.setting is None else [row_html(r) for r in p.setting.rows()]
        hands = (
            ""
            if p.ranks is None or p.status == "natural"
            else " / ".join(r.describe() for r in p.ranks)
        )
        players.append(
            [
                _cell(seat(p.seat)),
                _cell(_player_status(p)),
                *cards,
                _cell(hands),
                _cell(_signed(p.total)),
            ]
        )
    n = len(s.players)
    grid = [[_cell(c) for c in row] for row in _grid(s)]
    return _div(
        _p(_settlement_head(s)),
        _html_table(["seat", "result", *_ROWS, "hands", "total"], players),
        _html_table(
            ["", *(seat(i) for i in range(n))],
            grid,
            "matchups: points for the seat on the left against the seat above",
        ),
        _pre(_totals_line(s)),
    )


# -- simulations and duels ---------------------------------------------------------------------


NOT_AVAILABLE = "n/a"
"""How a figure too few rounds or deals cannot give (NaN) is printed: never as a number."""


def _num(x: float, spec: str) -> str:
    """``x`` formatted with ``spec``, or ``n/a`` where it is undefined (NaN)."""
    return NOT_AVAILABLE if math.isnan(x) else format(x, spec)


def _interval(low: float, high: float, spec: str) -> str:
    if math.isnan(low) or math.isnan(high):
        return NOT_AVAILABLE
    return f"[{low:{spec}}, {high:{spec}}]"


def _rate(x: float) -> str:
    return _num(x, ".1%")


def _seat_cells(s: SeatSummary) -> list[str]:
    return [
        seat(s.seat),
        s.policy,
        _num(s.mean, "+.3f"),
        _interval(s.ci_low, s.ci_high, "+.3f"),
        _rate(s.scoop_rate),
        _rate(s.sweep_rate),
        _rate(s.foul_rate),
        _rate(s.natural_rate),
        _rate(s.surrender_rate),
    ]


_SEAT_HEADERS = [
    "seat",
    "policy",
    "points/round",
    "95% CI",
    "scoops",
    "sweeps",
    "fouls",
    "naturals",
    "surrenders",
]


def _seat_text(s: SeatSummary) -> str:
    c = _seat_cells(s)
    return (
        f"{c[0]} {c[1]}: {c[2]} points/round, 95% CI {c[3]} over {s.rounds:,} rounds; "
        f"scoops {c[4]}, sweeps {c[5]}, fouls {c[6]}, naturals {c[7]}, surrenders {c[8]}"
    )


def _seat_html(s: SeatSummary) -> str:
    return _html_table(_SEAT_HEADERS, [[_cell(c) for c in _seat_cells(s)]])


def _policy_cells(p: PolicySummary) -> list[str]:
    return [
        p.policy,
        " ".join(seat(s) for s in p.seats),
        f"{p.hands:,}",
        _num(p.mean, "+.3f"),
        _interval(p.ci_low, p.ci_high, "+.3f"),
        *(_rate(x) for x in (p.scoop_rate, p.sweep_rate, p.foul_rate, p.natural_rate)),
        _rate(p.surrender_rate),
    ]


_POLICY_HEADERS = ["policy", "seats", "hands", "points/hand", "95% CI (by round)"] + (
    _SEAT_HEADERS[4:]
)


def _policy_text(p: PolicySummary) -> str:
    c = _policy_cells(p)
    return (
        f"{c[0]} at {c[1]}: {c[3]} points/hand, 95% CI {c[4]} clustered by round over "
        f"{c[2]} hands; scoops {c[5]}, sweeps {c[6]}, fouls {c[7]}, naturals {c[8]}, "
        f"surrenders {c[9]}"
    )


def _policy_html(p: PolicySummary) -> str:
    return _html_table(_POLICY_HEADERS, [[_cell(c) for c in _policy_cells(p)]])


def _simulation_head(r: Simulation) -> str:
    done = f"{r.rounds:,} rounds"
    if r.interrupted:
        done += f" of {r.requested:,} (interrupted)"
    where = f", rows in {r.parquet}" if r.parquet is not None else ""
    return f"{done}, {r.players} players, rules {r.rules}, seed {r.seed}, {r.seconds:.1f} s{where}"


def simulation_repr(r: Simulation) -> str:
    return (
        f"Simulation(rounds={r.rounds}, players={r.players}, rules={r.rules!r}, seed={r.seed}, "
        f"policies={r.policies!r}{', interrupted=True' if r.interrupted else ''})"
    )


def _simulation_text(r: Simulation) -> str:
    rows = [_seat_cells(s) for s in r.summary()]
    return _simulation_head(r) + "\n" + _table(_SEAT_HEADERS, rows, right=range(2, 9))


def _simulation_html(r: Simulation) -> str:
    rows = [[_cell(c) for c in _seat_cells(s)] for s in r.summary()]
    return _div(_p(_simulation_head(r)), _html_table(_SEAT_HEADERS, rows))


def duel_repr(d: DuelResult) -> str:
    return (
        f"DuelResult(a={d.a!r}, b={d.b!r}, deals={d.deals}, edge={d.edge:.4f}, "
        f"ci_low={d.ci_low:.4f}, ci_high={d.ci_high:.4f})"
    )


def _deals_needed(d: DuelResult) -> str:
    return "∞" if math.isinf(d.deals_needed) else _num(d.deals_needed, ",.0f")


def duel_text(d: DuelResult) -> str:
    stop = " (interrupted)" if d.interrupted else ""
    return (
        f"{d.a} vs {d.b} ({d.rules}, {d.players} players, {d.deals:,} deals{stop}): "
        f"edge {_num(d.edge, '+.4f')} points/hand, 95% CI "
        f"{_interval(d.ci_low, d.ci_high, '+.4f')}, same setting {_rate(d.same_share)}, "
        f"deals to resolve {_deals_needed(d)}"
    )


def _duel_html(d: DuelResult) -> str:
    rows = [
        [
            _cell(d.a),
            _cell(d.b),
            _cell(f"{d.deals:,}" + (" (interrupted)" if d.interrupted else "")),
            _cell(_num(d.edge, "+.4f")),
            _cell(_interval(d.ci_low, d.ci_high, "+.4f")),
            _cell(_rate(d.same_share)),
            _cell(_deals_needed(d)),
        ]
    ]
    headers = ["A", "B", "deals", "edge (points/hand)", "95% CI", "same setting", "to resolve"]
    return _div(_p(f"{d.rules}, {d.players} players"), _html_table(headers, rows))


# -- tables ------------------------------------------------------------------------------------


def round_repr(r: RoundRecord) -> str:
    return (
        f"RoundRecord(round={r.round}, dealer={r.dealer}, totals={r.totals!r}, "
        f"timed_out={r.timed_out!r})"
    )


def _round_head(r: RoundRecord) -> str:
    label = seat
    renumbered = r.seats != tuple(range(len(r.seats)))
    if renumbered:
        # the settlement below numbers the round's players P0, P1, ...: name the table's
        # seats otherwise, and say which seat each player is
        label = "seat {}".format
    head = f"round {r.round}, dealer {label(r.dealer)}"
    if renumbered:
        head += ", players " + ", ".join(f"{seat(i)} = seat {s}" for i, s in enumerate(r.seats))
    for what, seats in [
        ("timed out", r.timed_out),
        ("sat out", r.sat_out),
        ("joined", r.joined),
        ("left", r.left),
    ]:
        if seats:
            head += f", {what}: " + ", ".join(label(s) for s in seats)
    return head


def _round_text(r: RoundRecord) -> str:
    return _round_head(r) + "\n" + _settlement_text(r.settlement)


def _round_html(r: RoundRecord) -> str:
    return _div(_p(_round_head(r)), _settlement_html(r.settlement))


def table_repr(t: Table) -> str:
    seats = f", seats={t.seats!r}" if t.seats != tuple(range(t.players)) else ""
    bank = f", bankrolls={t.bankrolls!r}" if t.bankrolls is not None else ""
    return (
        f"Table(players={t.players}, rules={t.rules.name!r}, seed={t.seed}, round={t.round}, "
        f"dealer={t.dealer}{seats}{bank})"
    )


def _table_head(t: Table) -> str:
    state = "between rounds"
    if t.hands is not None:
        left = t.time_left
        state = "dealt, waiting for decisions" + ("" if left is None else f", {left:.3g} s left")
    out = ", ".join(seat(s) for s in t.sitting_out)
    return (
        f"{t.players} players, rules {t.rules.name}, seed {t.seed}: round {t.round} "
        f"({state}), dealer {seat(t.dealer)}" + (f", sitting out: {out}" if out else "")
    )


def _dealt_hands(t: Table) -> list[tuple[int, tuple[Card, ...]]]:
    """(seat, hand) of the round in progress; none between rounds."""
    return list(zip(t.dealt or (), t.hands or (), strict=True))


def _history(t: Table) -> tuple[list[str], list[list[str]]]:
    """Points by round, one column per seat that played a round shown or sits at the table."""
    shown = sorted({*t.seats, *(s for r in t.history for s in r.seats)})
    headers = ["round", "dealer", *(seat(s) for s in shown)]
    rows = []
    for r in t.history:
        points = dict(zip(r.seats, r.totals, strict=True))
        cells = [_signed(points[s]) if s in points else "" for s in shown]
        rows.append([str(r.round), seat(r.dealer), *cells])
    if t.bankrolls is not None:
        owned = dict(zip(t.seats, t.bankrolls, strict=True))
        rows.append(["bankroll", "", *(str(owned[s]) if s in owned else "" for s in shown)])
    return headers, rows


def _table_text(t: Table) -> str:
    out = [_table_head(t)]
    out += [f"{seat(s)} holds {row_text(h)}" for s, h in _dealt_hands(t)]
    headers, rows = _history(t)
    if rows:
        out.append(_table(headers, rows, right=range(2, len(headers))))
    return "\n".join(out)


def _table_html(t: Table) -> str:
    parts = [_p(_table_head(t))]
    if t.hands is not None:
        parts.append(
            _html_table(
                ["seat", "hand"], [[_cell(seat(s)), row_html(h)] for s, h in _dealt_hands(t)]
            )
        )
    headers, rows = _history(t)
    if rows:
        parts.append(_html_table(headers, [[_cell(c) for c in r] for r in rows], "history"))
    return _div(*parts)


# -- rule sets ---------------------------------------------------------------------------------
# A rule set reads in the names its TOML and JSON use (``full_house``, ``must_declare``), so
# what a person sees is what they would write to change it.


def _rules_fields(r: RuleSet) -> list[tuple[str, str]]:
    """(field, value) of every scoring rule but the bonus grid, in the data's order."""
    d = r.to_dict()

    def part(x: dict[str, Any]) -> str:
        kind, amount = x["kind"], x["amount"]
        return kind if kind in ("none", "as_scooped", "reject") else f"{kind} {amount}"

    sweep = d["sweep"]
    naturals = d["naturals"]
    values = ", ".join(f"{k} {v}" for k, v in naturals["values"].items())
    shown = ", rows must show it" if naturals["must_show"] else ""
    mode = d["bonus"]["mode"]
    return [
        ("wheel", d["wheel"]),
        ("bonus", f"mode {mode}" if any(d["bonus"].get(row) for row in _ROWS) else "none"),
        ("double_bonus", "yes" if d["double_bonus"] else "no"),
        ("majority_point", str(d["majority_point"])),
        ("overall_point", str(d["overall_point"])),
        ("scoop", part(d["scoop"])),
        (
            "sweep",
            "none"
            if sweep["multiplier"] == 1
            else f"x{sweep['multiplier']} from {sweep['min_players']} players"
            + ("" if sweep["fouled_counts"] else ", fouled opponents do not count"),
        ),
        ("foul", part(d["foul"])),
        ("naturals", f"{naturals['declaration']}{shown}: {values}" if values else "none"),
        ("surrender", "not allowed" if d["surrender"] is None else str(d["surrender"])),
        ("suit_order", d["suit_order"] or "none"),
        ("bankroll_cap", "yes" if d["bankroll_cap"] else "no"),
        ("timeout", d["timeout"]),
    ]


def _bonus_grid(r: RuleSet) -> tuple[list[str], list[list[str]]]:
    """The bonus table as a grid: a row per hand row, a column per category any row pays."""
    bonus = r.to_dict()["bonus"]
    paid = {row: bonus.get(row, {}) for row in _ROWS}
    names = [c for c in _core.CATEGORY_NAMES if any(c in paid[row] for row in _ROWS)]
    grid = [[row, *(str(paid[row].get(c, "-")) for c in names)] for row in _ROWS]
    return ["row", *names], grid


def _rules_head(r: RuleSet) -> str:
    return (
        "\n".join(textwrap.wrap(f"{r.name}: {r.description}", _WRAP)) if r.description else r.name
    )


def _rules_text(r: RuleSet) -> str:
    fields = _rules_fields(r)
    width = max(len(k) for k, _ in fields)
    lines = [_rules_head(r)]
    for key, value in fields:
        lines.append(f"  {key:<{width}}  {value}")
        headers, grid = _bonus_grid(r)
        if key == "bonus" and len(headers) > 1:
            pad = " " * (width + 4)
            lines += [pad + line for line in _table(headers, grid).splitlines()]
    if r.source:
        wrapped = textwrap.wrap(r.source, _WRAP - width - 4)
        lines.append(f"  {'source':<{width}}  {wrapped[0]}")
        lines += [" " * (width + 4) + more for more in wrapped[1:]]
    return "\n".join(lines)


def _rules_html(r: RuleSet) -> str:
    headers, grid = _bonus_grid(r)
    grid_html = _html_table(headers, [[_cell(c) for c in row] for row in grid])
    rows = [
        [_cell(key), _cell(value) + (grid_html if key == "bonus" and len(headers) > 1 else "")]
        for key, value in _rules_fields(r)
    ]
    if r.source:
        rows.append([_cell("source"), _cell(r.source)])
    return _div(_p(_rules_head(r)), _html_table(["field", "value"], rows))


# -- dispatch ----------------------------------------------------------------------------------

_TEXT: dict[str, Callable[[Any], str]] = {
    "Setting": _setting_text,
    "Declare": _declare_text,
    "Surrender": lambda _: "surrender",
    "RowResult": _row_result_text,
    "Matchup": _matchup_text,
    "Payment": _payment_text,
    "PlayerResult": _player_text,
    "Alternative": _alternative_text,
    "Settlement": _settlement_text,
    "BatchSolution": _batch_text,
    "SeatSummary": _seat_text,
    "PolicySummary": _policy_text,
    "Simulation": _simulation_text,
    "DuelResult": duel_text,
    "RoundRecord": _round_text,
    "Table": _table_text,
    "RuleSet": _rules_text,
}

_HTML: dict[str, Callable[[Any], str]] = {
    "Card": card_html,
    "CardSet": lambda s: _div(row_html(s)) if len(s) else _div(_p("(no cards)")),
    "HandRank": lambda r: f"<span>{escape(r.describe())}</span>",
    "Setting": lambda s: _div(_setting_html(s)),
    "Declare": _declare_html,
    "Surrender": lambda _: _div(_p("surrender")),
    "RowResult": lambda r: _div(_p(_row_result_text(r))),
    "Matchup": _matchup_html,
    "Payment": lambda p: _div(_p(_payment_text(p))),
    "PlayerResult": _player_html,
    "Alternative": _alternative_html,
    "Solution": _solution_html,
    "Settlement": _settlement_html,
    "BatchSolution": _batch_html,
    "SeatSummary": _seat_html,
    "PolicySummary": _policy_html,
    "Simulation": _simulation_html,
    "DuelResult": _duel_html,
    "RoundRecord": _round_html,
    "Table": _table_html,
    "RuleSet": _rules_html,
}


def _lookup(table: dict[str, Callable[[Any], str]], obj: object) -> Callable[[Any], str]:
    # by name, so this module imports no result class; only the package's own classes (and
    # subclasses of them) are laid out, whatever another library names its classes
    for cls in type(obj).__mro__:
        if cls.__module__.partition(".")[0] == "chinese_poker" and cls.__name__ in table:
            return table[cls.__name__]
    raise TypeError(f"no layout for {type(obj).__name__}")


def text(obj: object) -> str:
    """The ``str()`` of a package object (``Solution`` and ``HandRank`` write their own)."""
    return _lookup(_TEXT, obj)(obj)


def html(obj: object) -> str:
    """The HTML Jupyter shows for a package object: every text escaped, cards coloured."""
    return _lookup(_HTML, obj)(obj)


# the one-line ``repr`` of the results that are too large to repr field by field
_REPR: dict[str, Callable[[Any], str]] = {
    "BatchSolution": batch_repr,
    "Simulation": simulation_repr,
    "DuelResult": duel_repr,
    "RoundRecord": round_repr,
    "Table": table_repr,
}


class Shown:
    """What a result class inherits to read through this module: ``str()`` and Jupyter's HTML
    from the layouts above, and, for a class declared with ``repr=False``, its one-line
    ``repr`` (a dataclass that keeps its generated ``repr`` overrides this one)."""

    __slots__ = ()

    def __str__(self) -> str:
        return text(self)

    def __repr__(self) -> str:
        return _lookup(_REPR, self)(self)

    def _repr_html_(self) -> str:
        return html(self)
