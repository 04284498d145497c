"""Files checked before they are trusted, state changes that are atomic, and every entry
point's errors the package's (issue 41): regression tests of the examples found."""

from __future__ import annotations

import json
import time
import tracemalloc
import zipfile
from pathlib import Path

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import _core
from chinese_poker import strategy_tables as tables
from chinese_poker.exceptions import (
    ChinesePokerError,
    InvalidArgumentError,
    InvalidTablesError,
    InvalidTypeError,
)

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"


def _npy_header(shape: tuple[int, ...], descr: str = "<f8") -> bytes:
    header = repr({"descr": descr, "fortran_order": False, "shape": shape}).encode()
    header += b" " * (63 - (len(header) + 10) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header


def test_a_tables_member_claiming_a_huge_shape_is_refused_before_its_data(tmp_path: Path) -> None:
    path = tmp_path / "huge.npz"
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z,
        z.open("front.npy", "w", force_zip64=True) as f,
    ):
        f.write(_npy_header((10**9,)))
        chunk = bytes(1 << 20)
        for _ in range(256):  # 256 MB of zeros, a few hundred kB compressed
            f.write(chunk)
    assert path.stat().st_size < 2_000_000
    tracemalloc.start()
    start = time.perf_counter()
    with pytest.raises(InvalidTablesError, match=r"front must have \d+ classes"):
        tables.read_tables(path)
    took = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert took < 1.0 and peak < 20_000_000, (took, peak)


def test_a_tables_member_inflating_past_its_header_is_refused(tmp_path: Path) -> None:
    path0 = tables.shipped_tables_path("maceplay", 4)
    assert path0 is not None
    good = tables.read_tables(path0)
    path = tmp_path / "bomb.npz"
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z,
        z.open("front.npy", "w", force_zip64=True) as f,
    ):
        f.write(_npy_header((len(good["front"]),)))
        f.write(good["front"].astype("<f8").tobytes())
        for _ in range(256):
            f.write(bytes(1 << 20))
    tracemalloc.start()
    with pytest.raises(InvalidTablesError, match="more than its header says"):
        tables.read_tables(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20_000_000


def _saved() -> dict:
    t = cp.Table(3, "maceplay", bankrolls=[100, 100, 100], deadline=30, policies=[cp.Greedy()] * 3)
    for _ in range(3):
        t.play_round()
    t.deal()
    return json.loads(t.to_json())


@pytest.mark.parametrize(
    ("edit", "match"),
    [
        (lambda d: d["rounds"][0]["hands"][0].__setitem__(0, 99), "card code 99"),
        (
            lambda d: d["rounds"][1]["totals"].__setitem__(0, d["rounds"][1]["totals"][0] + 1),
            "sum to zero",
        ),
        (lambda d: d.__setitem__("time_left", 31.0), "time_left"),
        (lambda d: d.__setitem__("time_left", -1), "time_left"),
        (lambda d: d.__setitem__("deadline", 10**400), "deadline"),
        (lambda d: d["rounds"][0].__setitem__("round", 1e400), "saved table"),
        (lambda d: d["rounds"][0]["hands"].pop(), "saved table"),
    ],
)
def test_an_edited_saved_table_is_refused_whole(edit, match) -> None:  # type: ignore[no-untyped-def]
    data = _saved()
    edit(data)
    text = json.dumps(data)
    with pytest.raises(ChinesePokerError, match=match):
        cp.Table.from_json(text)


def test_table_arguments_never_raise_raw_errors() -> None:
    with pytest.raises(InvalidArgumentError):
        cp.Table(deadline=10**400)
    with pytest.raises(InvalidTypeError):
        cp.Table.from_json(5)  # type: ignore[arg-type]


def test_a_deal_that_fails_on_its_clock_leaves_the_table_as_it_was() -> None:
    ticks = iter([0.0])

    def clock() -> float:
        return next(ticks)  # StopIteration from the second call on

    t = cp.Table(3, deadline=10, clock=clock)
    t.deal()  # uses the one tick
    t2 = cp.Table(3, deadline=10, clock=lambda: "soon")  # type: ignore[arg-type, return-value]
    before = t2.to_json()
    with pytest.raises(InvalidTypeError):
        t2.deal()
    assert t2.dealt is None and t2.hands is None and t2.to_json() == before
    del t


def test_a_failing_settle_leaves_the_round_to_settle_again() -> None:
    calls = {"n": 0}

    def flaky(hand: np.ndarray) -> object:
        calls["n"] += 1
        raise RuntimeError("policy crashed")

    t = cp.Table(2, policies=[flaky, cp.Greedy()], bankrolls=[10, 10])
    before = t.to_json()
    with pytest.raises(RuntimeError):
        t.play_round()
    assert t.to_json() == before and t.dealt is None and t.round == 0


def test_bankrolls_stay_within_their_bound() -> None:
    top = _core.MAX_BANKROLL
    capped = cp.RuleSet.preset("maceplay")
    if capped.bankroll_cap:
        with pytest.raises(InvalidArgumentError, match="MAX_BANKROLL"):
            cp.Table(2, capped, bankrolls=[top, top])
    uncapped = next(
        cp.RuleSet.preset(n) for n in cp.RuleSet.presets() if not cp.RuleSet.preset(n).bankroll_cap
    )
    t = cp.Table(2, uncapped, bankrolls=[top, -top], policies=[cp.Greedy()] * 2)
    for _ in range(5):
        t.play_round()
        assert all(-top <= b <= top for b in t.bankrolls or ())
    again = cp.Table.from_json(t.to_json())
    assert again.bankrolls == t.bankrolls
    again.play_round()


def test_wrong_types_are_invalid_type_errors() -> None:
    with pytest.raises(InvalidTypeError):
        cp.evaluate("As Ks Qs Js Ts", wheel=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidTypeError):
        cp.Setting.parse(5)  # type: ignore[arg-type]
    with pytest.raises((InvalidTypeError, cp.exceptions.InvalidRulesError)):
        cp.RuleSet(wheel=5)  # type: ignore[arg-type]
    batch = cp.solve_batch(cp.parse_hands([HAND]), "maceplay", 4)
    with pytest.raises(InvalidTypeError):
        batch.decision(1.0)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError):
        batch.decision(5)


def test_compact_to_json_is_json_dumps_of_to_dict() -> None:
    t = cp.Table(3, policies=[cp.Greedy()] * 3, bankrolls=[10, 10, 10])
    assert t.to_json(indent=None) == json.dumps(t.to_dict(), ensure_ascii=False)
    for _ in range(3):
        t.play_round()
    t.deal()
    for indent in (None, 2):
        assert t.to_json(indent=indent) == json.dumps(
            t.to_dict(), indent=indent, ensure_ascii=False
        )
