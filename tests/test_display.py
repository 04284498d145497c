"""How objects read: repr, str and the HTML Jupyter shows, and the one card order of rows."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker.display import ordered, row_text
from chinese_poker.exceptions import InvalidArgumentError
from chinese_poker.simulate import SeatSummary

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"
P0 = ("Qs Qh Qd", "5s 5h 5d Ks Kh", "9s 9h 9d 9c 2s")
P1 = ("Ac Kc 7d", "Jc Jd 8s 6c 4d", "Ah Th 6h 3h 2h")

# -- HTML checking -----------------------------------------------------------------------------

_VOID = {"br", "hr", "img", "meta", "link", "input", "col", "wbr"}


class _Checker(HTMLParser):
    """Fails on unbalanced or misnested tags; collects the text and each card's text in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.text: list[str] = []
        self.cards: list[str] = []
        self._in_card = 0
        self.tags: Counter[str] = Counter()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] += 1
        if tag in _VOID:
            return
        self.stack.append(tag)
        if tag == "span" and ("class", "cp-card") in attrs:
            self._in_card = len(self.stack)
            self.cards.append("")

    def handle_endtag(self, tag: str) -> None:
        assert self.stack, f"</{tag}> closes nothing"
        top = self.stack.pop()
        assert top == tag, f"</{tag}> closes <{top}>"
        if self._in_card and len(self.stack) < self._in_card:
            self._in_card = 0

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._in_card:
            self.cards[-1] += data


def check_html(markup: str) -> _Checker:
    """Parses ``markup`` as HTML and fails unless it is well formed."""
    assert isinstance(markup, str) and markup
    p = _Checker()
    p.feed(markup)
    p.close()
    assert not p.stack, f"unclosed tags {p.stack}"
    assert "script" not in p.tags
    return p


def cards_of(markup: str) -> list[str]:
    return check_html(markup).cards


def pretty(cards: Any) -> list[str]:
    return [c.pretty() for c in cards]


# -- the one card order ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "shown"),
    [
        ("5s Kh 5h Ks 5d", "5♠ 5♥ 5♦ K♠ K♥"),  # full house: trips first
        ("2c Qs 5d Qh 5s", "Q♠ Q♥ 5♠ 5♦ 2♣"),  # two pair, high pair first, kicker last
        ("Ah 3c 5d 4s 2h", "5♦ 4♠ 3♣ 2♥ A♥"),  # a wheel reads from its five
        ("Th Ah Jh Qh Kh", "A♥ K♥ Q♥ J♥ T♥"),
        ("Kc Ah Kd", "K♦ K♣ A♥"),  # a front pair before its kicker
        ("2c 9s 9c 9h 9d", "9♠ 9♥ 9♦ 9♣ 2♣"),
    ],
)
def test_rows_read_by_significance(row: str, shown: str) -> None:
    assert row_text(row) == shown
    assert [c.pretty() for c in ordered(cp.parse_cards(row))] == shown.split()
    assert _core.display_order(row) == list(ordered(row))


def test_solution_and_alternatives_share_the_order() -> None:
    sol = cp.solve(HAND, "maceplay", 4, top_k=5)
    text = str(sol)
    assert text == sol.explain()
    for name, row in zip(("front", "middle", "back"), sol.setting.rows(), strict=True):
        assert re.search(rf"^  {name}\s+{re.escape(row_text(row))}\s", text, re.M), name
    for alt in sol.alternatives[1:]:
        shown = " / ".join(row_text(r) for r in alt.setting.rows())
        assert shown in text
        assert shown in str(alt)
    # the HTML lists every row in the same order
    page = cards_of(sol._repr_html_())
    chosen = [c for r in sol.setting.rows() for c in ordered(r)]
    assert page[:13] == pretty(chosen)
    for i, alt in enumerate(sol.alternatives[1:]):
        expect = [c for r in alt.setting.rows() for c in ordered(r)]
        assert page[13 * (i + 1) : 13 * (i + 2)] == pretty(expect)


def test_settlement_players_share_the_order() -> None:
    result = cp.settle([P0, P1], "maceplay")
    for p in result.players:
        assert p.setting is not None
        shown = [row_text(r) for r in p.setting.rows()]
        assert " / ".join(shown) in result.explain()
        line = next(ln for ln in str(result).splitlines() if ln.startswith(f"P{p.seat} "))
        assert all(r in line for r in shown)
    expect = [c for p in result.players if p.setting for r in p.setting.rows() for c in ordered(r)]
    assert cards_of(result._repr_html_()) == pretty(expect)


def test_the_order_is_for_display_only() -> None:
    sol = cp.solve(HAND, "maceplay", 4)
    codes = sol.to_dict()["codes"]
    assert [c.code for r in sol.setting.rows() for c in r] == codes  # data as the solver set it
    assert sol.to_dict()["setting"] == sol.setting.to_text()
    result = cp.settle([cp.Setting(*P0), P1], "maceplay")
    assert result.to_dict()["players"][0]["setting"] == " / ".join(P0)  # as given
    assert result.players[0].setting == cp.Setting(*P0)
    batch = cp.solve_batch(np.array([codes], np.uint8), "maceplay")
    assert batch.settings[0].tolist() == codes
    str(batch), batch._repr_html_()
    assert batch.settings[0].tolist() == codes


# -- repr --------------------------------------------------------------------------------------


def test_evaluable_reprs_round_trip() -> None:
    names = {
        "Card": cp.Card,
        "CardSet": cp.CardSet,
        "HandRank": cp.HandRank,
        "Setting": cp.Setting,
        "Declare": cp.Declare,
        "Surrender": cp.Surrender,
        "SeatSummary": SeatSummary,
    }
    sol = cp.solve("Ac Kd Qh Js Tc 9d 8h 7s 6c 5d 4h 3s 2c", "maceplay")
    run = cp.simulate(20, players=2, rules="maceplay", seed=3, progress=False)
    objects: list[object] = [
        cp.Card.parse("Th"),
        cp.CardSet("As Kd 2c"),
        cp.evaluate("Kc Kd Ah"),
        cp.evaluate("Ac 2d 3h 4s 5c"),
        cp.Setting(*P0),
        sol.as_decision(),
        cp.Surrender(),
        run.summary()[1],
    ]
    for obj in objects:
        back = eval(repr(obj), names)
        assert back == obj and type(back) is type(obj), repr(obj)
    rank = cp.evaluate("Kc Kd Ah")
    assert repr(rank) == f"HandRank({rank.raw}, 'pair of kings, ace kicker')"
    with pytest.raises(InvalidArgumentError, match="description"):
        cp.HandRank(rank.raw, "pair of queens")


def test_reprs_are_short_and_name_the_object() -> None:
    sol = cp.solve(HAND, "maceplay", 4)
    result = cp.settle([P0, P1], "maceplay")
    batch = cp.solve_batch(cp.deal(30, 2, 1)[:, 0], "maceplay", 2)
    run = cp.simulate(30, players=3, rules="maceplay", seed=1, progress=False)
    duel = cp.duel(cp.TableEV(), cp.Greedy(), deals=20, rules="two_four", progress=False)
    table = cp.Table(players=2, rules="maceplay", bankrolls=[50, 50], seed=2)
    table.play_round()
    objects: list[object] = [
        sol,
        *sol.alternatives,
        result,
        *result.players,
        *result.matchups,
        *result.payments,
        *result.matchups[0].rows,
        batch,
        run,
        duel,
        table,
        table.history[0],
    ]
    for obj in objects:
        r = repr(obj)
        assert r.startswith(type(obj).__name__ + "("), r
        assert len(r) < 200 and "\n" not in r, r
    assert repr(batch) == "BatchSolution(hands=30, play={}, declare={}, surrender={})".format(
        *np.bincount(batch.decisions, minlength=3)[:3]
    )
    assert "rules='maceplay'" in repr(run) and "rounds=30" in repr(run)
    assert repr(table).startswith("Table(players=2, rules='maceplay', seed=2, round=1")


# -- str ---------------------------------------------------------------------------------------


def test_setting_prints_as_three_rows() -> None:
    s = cp.Setting("Kc Ah Kd", "5s Kh 5h Ks 5d", "2c 9s 9c 9h 9d")
    assert str(s).splitlines() == [
        "front  K♦ K♣ A♥",
        "middle 5♠ 5♥ 5♦ K♠ K♥",
        "back   9♠ 9♥ 9♦ 9♣ 2♣",
    ]
    assert s.to_text() == "Kc Ah Kd / 5s Kh 5h Ks 5d / 2c 9s 9c 9h 9d"
    assert cp.Setting.parse(s.to_text()) == s
    declare = cp.Declare("six_pairs", s)
    assert str(declare).splitlines()[0] == "declare six pairs"
    assert str(cp.Surrender()) == "surrender"
    assert str(cp.Card.parse("as")) == "As" and cp.Card.parse("as").pretty() == "A♠"
    assert str(cp.evaluate("Kc Kd Ah")) == "pair of kings, ace kicker"


def test_settlement_prints_a_matchup_table_and_totals() -> None:
    result = cp.settle(
        [
            ("Qs Qh Qd", "5s 5h 5d Ks Kh", "9s 9h 9d 9c 2s"),
            cp.Setting("Ac Kc 7d", "Jc Jd 8s 6c 4d", "Ah Th 6h 3h 2h"),
            cp.Surrender(),
        ],
        "pokerfever_eastern",
        bankrolls=[100, 100, 100],
    )
    text = str(result)
    lines = text.splitlines()
    assert lines[0].startswith("3 players, dealer P0")
    assert any(ln.startswith("P2") and "surrendered" in ln for ln in lines)
    grid = lines[lines.index(next(ln for ln in lines if ln.startswith("matchups"))) + 1 :][:4]
    assert grid[0].split() == ["P0", "P1", "P2"]
    for x, row in enumerate(grid[1:]):
        cells = row.split()
        assert cells[0] == f"P{x}"
        for y, cell in enumerate(cells[1:]):
            want = "·" if x == y else f"{result.points(x, y):+d}"
            assert cell == want
    assert "totals: P0 +12, P1 -6, P2 -6" in text
    assert "bankrolls after: P0 112, P1 94, P2 94" in text
    assert str(result.players[2]).startswith("P2 surrendered")
    assert str(result.matchup(0, 1)).startswith("P0 v P1 (rows): +9 for P0, -9 for P1")
    assert str(result.matchup(0, 1).rows[2]) == "back: P0 wins 4 (bonus)"
    assert str(result.payments[0]).startswith("P")
    assert "P0" in result.explain()  # the full account stays in explain()


def test_summaries_print_tables() -> None:
    run = cp.simulate(
        60,
        players=3,
        rules="maceplay",
        seed=1,
        progress=False,
        policies=[cp.TableEV(), cp.Greedy(), cp.RandomLegal()],
    )
    text = str(run)
    assert text.startswith("60 rounds, 3 players, rules maceplay, seed 1")
    for s in run.summary():
        line = next(ln for ln in text.splitlines() if ln.startswith(f"P{s.seat} "))
        assert f"{s.mean:+.3f}" in line and f"[{s.ci_low:+.3f}, {s.ci_high:+.3f}]" in line
        assert f"{s.scoop_rate:.1%}" in line
        assert f"{s.mean:+.3f} points/round" in str(s)
    duel = cp.duel(cp.TableEV(), cp.Greedy(), deals=30, rules="two_four", progress=False)
    assert f"edge {duel.edge:+.4f} points/hand" in str(duel)
    assert f"[{duel.ci_low:+.4f}, {duel.ci_high:+.4f}]" in str(duel)
    batch = cp.solve_batch(cp.deal(12, 2, 5)[:, 0], "maceplay", 2)
    lines = str(batch).splitlines()
    assert lines[0].startswith("12 hands (")
    assert lines[-1] == "... and 2 more"
    first = batch.decision(0)
    assert isinstance(first, cp.Setting)
    assert all(row_text(r) in lines[2] for r in first.rows())


def test_table_prints_hands_and_history() -> None:
    table = cp.Table(players=3, rules="pokerfever_western", bankrolls=[100, 100, 100], seed=7)
    table.play_round()
    hands = table.deal()
    text = str(table)
    assert "round 1 (dealt, waiting for decisions), dealer P1" in text
    for i, h in enumerate(hands):
        assert f"P{i} holds {row_text(h)}" in text
    assert any(ln.split()[:2] == ["0", "P0"] for ln in text.splitlines())
    record = table.history[0]
    assert str(record).startswith("round 0, dealer P0")
    assert "totals:" in str(record)
    assert table.history[0].decisions[0].count("/") == 2  # data: one line, as set


# -- HTML --------------------------------------------------------------------------------------


def test_html_is_valid_and_shows_every_card() -> None:
    sol = cp.solve(HAND, "maceplay", 4, top_k=3)
    mc = cp.solve(HAND, "maceplay", 2, cp.MonteCarlo(samples=50, seed=1), top_k=2)
    declared = cp.solve("Ac Kd Qh Js Tc 9d 8h 7s 6c 5d 4h 3s 2c", "maceplay")
    result = cp.settle([P0, P1], "maceplay")
    setting = cp.Setting(*P0)
    card = cp.Card.parse("Td")

    def every(rows: Any) -> list[str]:
        return sorted(c.pretty() for r in rows for c in r)

    assert cards_of(card._repr_html_()) == ["T♦"]
    assert sorted(cards_of(cp.CardSet(HAND)._repr_html_())) == sorted(pretty(cp.CardSet(HAND)))
    assert sorted(cards_of(setting._repr_html_())) == every(setting.rows())
    assert sorted(cards_of(cp.Declare("dragon", declared.setting)._repr_html_())) == every(
        declared.setting.rows()
    )
    for s in (sol, mc, declared):
        page = cards_of(s._repr_html_())
        assert sorted(page[:13]) == every(s.setting.rows())
        assert len(page) == 13 * len(s.alternatives)
        for alt in s.alternatives:
            assert sorted(cards_of(alt._repr_html_())) == every(alt.setting.rows())
    for p in result.players:
        assert p.setting is not None
        assert sorted(cards_of(p._repr_html_())) == every(p.setting.rows())
    page = check_html(result._repr_html_())
    assert sorted(page.cards) == sorted(every(P0_ROWS()) + every(P1_ROWS()))
    assert "P0" in "".join(page.text) and "+18" in "".join(page.text)
    # a row of cards never wraps between its cards, nor a grid's caption into a column
    html = result._repr_html_()
    assert html.count('class="cp-row" style="white-space:nowrap"') == 6
    assert "<caption style='text-align:left;white-space:nowrap'>matchups" in html
    for obj in (*result.matchups, *result.payments, *result.matchups[0].rows):
        check_html(obj._repr_html_())
    rank = cp.evaluate("Kc Kd Ah")
    assert "pair of kings" in "".join(check_html(rank._repr_html_()).text)
    assert check_html(cp.Surrender()._repr_html_()).cards == []


def P0_ROWS() -> list[list[cp.Card]]:
    return [cp.parse_cards(r) for r in P0]


def P1_ROWS() -> list[list[cp.Card]]:
    return [cp.parse_cards(r) for r in P1]


def test_html_of_runs_batches_and_tables() -> None:
    hands = cp.deal(4, 2, 9)[:, 0]
    batch = cp.solve_batch(hands, "maceplay", 2)
    page = cards_of(batch._repr_html_())
    assert sorted(page) == sorted(pretty(cp.Card(int(c)) for h in hands for c in h))
    run = cp.simulate(20, players=2, rules="maceplay", seed=2, progress=False)
    text = "".join(check_html(run._repr_html_()).text)
    for s in run.summary():
        assert f"{s.mean:+.3f}" in text and f"[{s.ci_low:+.3f}, {s.ci_high:+.3f}]" in text
    assert f"{run.summary()[0].mean:+.3f}" in "".join(
        check_html(run.summary()[0]._repr_html_()).text
    )
    duel = cp.duel(cp.TableEV(), cp.Greedy(), deals=10, rules="two_four", progress=False)
    assert f"{duel.edge:+.4f}" in "".join(check_html(duel._repr_html_()).text)
    table = cp.Table(players=2, rules="maceplay", seed=4)
    table.play_round()
    dealt = table.deal()
    page = cards_of(table._repr_html_())
    assert sorted(page) == sorted(pretty(c for h in dealt for c in h))
    record = table.history[0]
    rec = cards_of(record._repr_html_())
    assert sorted(rec) == sorted(pretty(cp.Card(c) for h in record.hands for c in h))


def test_html_escapes_text() -> None:
    hostile = "<script>alert('x')</script> & <b>"
    duel = cp.duel(cp.TableEV(), cp.Greedy(), deals=5, rules="two_four", progress=False)
    from dataclasses import replace

    shown = replace(duel, a=hostile, edges=duel.edges)
    page = check_html(shown._repr_html_())
    assert hostile in "".join(page.text)
    assert "b" not in page.tags
    rules = cp.RuleSet.preset("maceplay").replace(name=hostile)
    table = cp.Table(players=2, rules=rules, seed=1)
    table.play_round()
    page = check_html(table._repr_html_())
    assert hostile in "".join(page.text) and "b" not in page.tags
    run = cp.simulate(5, players=2, rules=rules, seed=1, progress=False)
    assert hostile in "".join(check_html(run._repr_html_()).text)


def test_red_and_black_suits() -> None:
    markup = cp.CardSet("Ah Ad As Ac")._repr_html_()
    by_card = {card: colour for colour, card in re.findall(r'color:(#[0-9a-f]+)">(..)<', markup)}
    assert by_card["A♥"] == by_card["A♦"] != by_card["A♠"] == by_card["A♣"]


# -- rule sets ---------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", _core.PRESET_NAMES)
def test_rule_set_reads_field_by_field(preset: str) -> None:
    """str() is one line per scoring rule, in the names the TOML uses, the bonus table as a
    grid; the repr stays the evaluable dataclass one."""
    rules = cp.RuleSet.preset(preset)
    text = str(rules)
    lines = text.splitlines()
    assert lines[0].startswith(f"{preset}: ")
    assert all(len(line) <= 100 for line in lines if "naturals" not in line)
    fields = {line.split()[0] for line in lines[1:] if line.startswith("  ") and line[2] != " "}
    assert fields >= {"wheel", "bonus", "scoop", "sweep", "foul", "naturals", "timeout"}
    for natural, value in rules.to_dict()["naturals"]["values"].items():
        assert f"{natural} {value}" in text
    bonus = rules.to_dict()["bonus"]
    for row in _core.ROW_NAMES:
        for category, value in bonus.get(row, {}).items():
            grid = next(line for line in lines if line.split()[:1] == [row])
            header = next(line for line in lines if line.split()[:1] == ["row"])
            assert grid[header.index(category) :].split()[0] == str(value), (row, category)
    assert repr(rules).startswith(f"RuleSet(name={preset!r}")


@pytest.mark.parametrize("preset", _core.PRESET_NAMES)
def test_rule_set_html(preset: str) -> None:
    rules = cp.RuleSet.preset(preset)
    checker = check_html(rules._repr_html_())
    text = " ".join(checker.text)
    for field in ("wheel", "scoop", "sweep", "foul", "naturals", "timeout"):
        assert field in text
    for natural in rules.to_dict()["naturals"]["values"]:
        assert natural in text
    if any(rules.to_dict()["bonus"].get(row) for row in _core.ROW_NAMES):
        assert checker.tags["table"] == 2  # the fields, and the bonus grid inside them
