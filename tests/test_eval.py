"""Evaluation from Python: hand-worked examples, the row comparison of docs/rules.md
("Comparing rows"), the wheel option, HandRank as a value, and ``evaluate_batch`` against
per-call ``evaluate``."""

from __future__ import annotations

import pickle

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import Category
from chinese_poker.exceptions import (
    DuplicateCardError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidRulesError,
    InvalidShapeError,
)


def ev(text: str, wheel: str = "low") -> cp.HandRank:
    return cp.evaluate(text, wheel=wheel)


@pytest.mark.parametrize(
    ("row", "category", "description"),
    [
        ("Ah Kh Qh Jh Th", Category.STRAIGHT_FLUSH, "royal flush"),
        ("9c 8c 7c 6c 5c", Category.STRAIGHT_FLUSH, "nine-high straight flush"),
        ("5d 4d 3d 2d Ad", Category.STRAIGHT_FLUSH, "five-high straight flush"),
        ("9c 9d 9h 9s 2c", Category.QUADS, "four nines, two kicker"),
        ("Qc Qd Qh 5s 5c", Category.FULL_HOUSE, "queens full of fives"),
        ("Kh 9h 7h 4h 2h", Category.FLUSH, "king-high flush, then nine, seven, four, two"),
        ("Tc Jd Qh Ks Ac", Category.STRAIGHT, "ace-high straight"),
        ("6c 5d 4h 3s 2c", Category.STRAIGHT, "six-high straight"),
        ("Ac 2d 3h 4s 5c", Category.STRAIGHT, "five-high straight"),
        ("7c 7d 7h Ks 2c", Category.TRIPS, "three sevens, kickers king, two"),
        ("Jc Jd 4h 4s Ac", Category.TWO_PAIR, "two pair, jacks and fours, ace kicker"),
        ("Ks Kh Qc Jd Th", Category.PAIR, "pair of kings, kickers queen, jack, ten"),
        ("Ac Qd 9h 6s 3c", Category.HIGH_CARD, "ace-high, kickers queen, nine, six, three"),
        ("Jc Qd Kh As 2c", Category.HIGH_CARD, "ace-high, kickers king, queen, jack, two"),
        ("Qc Qd Qh", Category.TRIPS, "three queens"),
        ("Kc Kd Ah", Category.PAIR, "pair of kings, ace kicker"),
        ("Ac Kc Qc", Category.HIGH_CARD, "ace-high, kickers king, queen"),  # no 3-card flush
        ("4c 3d 2h", Category.HIGH_CARD, "four-high, kickers three, two"),  # nor straight
    ],
)
def test_examples(row: str, category: Category, description: str) -> None:
    rank = ev(row)
    assert rank.category is category
    assert rank.describe() == description == str(rank)
    assert rank.size == len(row.split())
    assert repr(rank) == f"HandRank({rank.raw}, '{description}')"


def test_values_are_the_significant_ranks() -> None:
    assert ev("Jc Jd 4h 4s Ac").values == [11, 4, 14]
    assert ev("Kc Kd Ah").values == [13, 14]
    assert ev("Qc Qd Qh").values == [12]
    assert ev("Qc Qd Qh 5s 5c").values == [12, 5]
    assert ev("Tc Jd Qh Ks Ac").values == [15]  # a straight stores its top card, ace-high 15
    assert ev("Ac 2d 3h 4s 5c").values == [5]
    assert ev("Ac 2d 3h 4s 5c", wheel="second").values == [14]


def test_category_enum() -> None:
    assert [c.value for c in Category] == list(range(9))
    assert Category.FULL_HOUSE.label == "full house"
    assert Category.TRIPS.label == "three of a kind"
    assert Category.QUADS.label == "four of a kind"
    assert Category.HIGH_CARD < Category.PAIR < Category.STRAIGHT_FLUSH


def test_five_card_order() -> None:
    rows = [
        "7c 5d 4h 3s 2c",
        "Ac Kd Qh Js 9c",
        "2c 2d 5h 4s 3c",
        "Ac Ad Kh Qs Jc",
        "2c 2d 3h 3s 4c",
        "Ac Ad Kh Ks 2c",
        "2c 2d 2h 4s 3c",
        "Ac Ad Ah Ks Qc",
        "Ac 2d 3h 4s 5c",
        "2c 3d 4h 5s 6c",
        "Tc Jd Qh Ks Ac",
        "7h 5h 4h 3h 2h",
        "Ah Kh Qh Jh 9h",
        "2c 2d 2h 3s 3c",
        "Ac Ad Ah Ks Kc",
        "2c 2d 2h 2s 3c",
        "Ac Ad Ah As Kc",
        "Ah 2h 3h 4h 5h",
        "9h Th Jh Qh Kh",
        "Th Jh Qh Kh Ah",
    ]
    ranks = [ev(r) for r in rows]
    for weaker, stronger in zip(ranks, ranks[1:], strict=False):
        assert weaker < stronger and weaker.raw < stronger.raw, (weaker, stronger)
    assert ev("Ac Kd Qh Js 9c") == ev("As Kc Qd Jh 9s")  # suits never break ties
    assert ev("Ac Kd Qh Js 9c").raw == ev("As Kc Qd Jh 9s").raw


def test_wheel_option() -> None:
    wheel, six_high, king_high, broadway = (
        "Ac 2d 3h 4s 5c",
        "2c 3d 4h 5s 6c",
        "9c Td Jh Qs Kc",
        "Tc Jd Qh Ks Ac",
    )
    assert ev(wheel, "low") < ev(six_high, "low")
    assert ev(wheel, "second") > ev(king_high, "second")
    assert ev(wheel, "second") < ev(broadway, "second")
    assert ev(wheel, "second") > ev(six_high, "second")
    # the same option ranks the A-2-3-4-5 straight flush
    sf_wheel, sf_six, sf_king = "Ah 2h 3h 4h 5h", "2d 3d 4d 5d 6d", "9s Ts Js Qs Ks"
    assert ev(sf_wheel, "low") < ev(sf_six, "low")
    assert ev(sf_king, "second") < ev(sf_wheel, "second") < ev("Th Jh Qh Kh Ah", "second")
    # wrap-arounds are not straights under either option
    for w in ["low", "second"]:
        assert ev("Jc Qd Kh As 2c", w).category is Category.HIGH_CARD
        assert ev("Qc Kd Ah 2s 3c", w).category is Category.HIGH_CARD
        assert ev(wheel, w).describe() == "five-high straight"
        assert ev(wheel, w).category is Category.STRAIGHT
    # rows without an A-2-3-4-5 are ranked identically under both options
    for row in [six_high, broadway, "Kc Kd 5h 5s 2c", "Ac 2c 3c 4c 6c", "Qc Qd Qh"]:
        assert ev(row, "low").raw == ev(row, "second").raw
    assert cp.evaluate("Ac 2d 3h 4s 5c") == ev(wheel, "low")  # "low" is the default


@pytest.mark.parametrize("wheel", ["high", "Low", "", "ace"])
def test_unknown_wheel(wheel: str) -> None:
    with pytest.raises(InvalidRulesError, match="wheel"):
        cp.evaluate("As Ks Qs", wheel=wheel)
    with pytest.raises(InvalidRulesError, match="wheel"):
        cp.evaluate_batch(np.zeros((0, 5), dtype=np.uint8), wheel=wheel)


def test_front_against_middle_rules_examples() -> None:
    """docs/rules.md, "Comparing rows": category, then ranks, only as many as the front has."""
    # K K A in front, K K Q J 10 in the middle: the front is stronger, a foul.
    front, middle = ev("Kc Kd Ah"), ev("Ks Kh Qc Jd Th")
    assert front > middle and not front <= middle
    assert front.raw > middle.raw
    # Swapped kickers: legal.
    front, middle = ev("Kc Kd Qh"), ev("Ks Kh Ac Jd Th")
    assert front < middle and front.raw < middle.raw
    # The front's ranks equal the middle's leading ranks: equal, which is legal.
    front, middle = ev("Kc Kd Qh"), ev("Ks Kh Qc Jd Th")
    assert front == middle and front <= middle and front >= middle
    assert not front < middle and not front > middle
    assert hash(front) == hash(middle)
    assert front.raw <= middle.raw  # the raw order is the setting rule: legal
    # High cards and trips the same way.
    assert ev("Ac Kd 9h") == ev("As Kc 9d 4h 2c")
    assert ev("Ac Kd Th") > ev("As Kc 9d 8h 7c")
    assert ev("Qc Qd Qh") == ev("Qc Qd Qh 2c Ks")  # trips compare the trips rank only
    assert ev("Qc Qd Qh") > ev("Jc Jd Jh Ac Kc")
    assert ev("Jc Jd Jh") < ev("Qc Qd Qh 2c 3s")
    # Any 5-card category above trips beats any front; trips beat two pair.
    assert ev("Ac Ad Ah") < ev("2c 3d 4h 5s 6c")
    assert ev("Ac Ad Ah") < ev("2c 3c 4c 5c 7c")
    assert ev("2c 2d 2h") > ev("Ac Ad Kh Ks Qc")
    assert ev("2c 2d 3h") > ev("Ac Kd Qh Js 9c")


def test_front_against_middle_matches_the_prefix_rule_on_random_rows() -> None:
    rng = np.random.default_rng(7)
    outcomes = set()
    for _ in range(3000):
        # four ranks only, so that equal categories and equal prefixes are common
        ranks = rng.choice(13, size=4, replace=False)
        deck = np.array([r * 4 + s for r in ranks for s in range(4)])
        codes = [int(c) for c in rng.choice(deck, size=8, replace=False)]
        front, middle = cp.evaluate(codes[:3]), cp.evaluate(codes[3:])
        n = len(front.values)
        want_key = (front.category, front.values)
        got_key = (middle.category, middle.values[:n])
        if front.category != middle.category:
            got_key = (middle.category, [])
            want_key = (front.category, [])
        expect = (want_key > got_key) - (want_key < got_key)
        outcomes.add(expect)
        assert (front > middle) == (expect > 0)
        assert (front == middle) == (expect == 0)
        assert (front < middle) == (expect < 0)
        assert (front.raw <= middle.raw) == (expect <= 0)
    assert outcomes == {-1, 0, 1}


def test_hand_rank_is_an_immutable_picklable_value() -> None:
    rank = ev("Kc Kd Ah")
    with pytest.raises(AttributeError):
        rank.raw = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        rank.other = 3  # type: ignore[attr-defined]
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(rank, protocol=protocol))
        assert back == rank and back.raw == rank.raw and back.describe() == rank.describe()
    assert cp.HandRank(rank.raw) == rank
    assert len({ev("Kc Kd Ah"), ev("Ks Kh Ad"), ev("Kc Kd Qh")}) == 2
    assert rank != "pair of kings"
    with pytest.raises(TypeError):
        assert rank < 3  # type: ignore[operator]


@pytest.mark.parametrize(
    "raw", [0, 1, -1, 2**25, 2**32 - 1, 2**32, 2**63, (15 << 17) | (14 << 13) | (13 << 9)]
)
def test_hand_rank_rejects_raw_values_no_row_has(raw: int) -> None:
    # never OverflowError, whatever the size of the int
    with pytest.raises(InvalidArgumentError, match=f'argument "raw".*got {raw}$'):
        cp.HandRank(raw)


def test_evaluate_accepts_every_card_form() -> None:
    expect = ev("As Kd Qh Jc 9s")
    codes = [51, 45, 42, 37, 31]
    forms = [
        "As Kd Qh Jc 9s",
        "as,kd,qh,jc,9s",
        ["As", "Kd", "Qh", "Jc", "9s"],
        codes,
        tuple(codes),
        [cp.Card(c) for c in codes],
        cp.CardSet(codes),
        np.array(codes, dtype=np.uint8),
        iter(codes),
        [51, "Kd", cp.Card(42), 37, "9♠"],
    ]
    for form in forms:
        assert cp.evaluate(form).raw == expect.raw, form


@pytest.mark.parametrize(
    ("cards", "error", "message"),
    [
        ("As Kd", InvalidShapeError, "got 2 cards"),
        ("As Kd Qh Jc", InvalidShapeError, "got 4 cards"),
        ("As Kd Qh Jc Tc 9c", InvalidShapeError, "got 6 cards"),
        ("", InvalidShapeError, "got 0 cards"),
        ("As Kd as", DuplicateCardError, "positions 1 and 3"),
        ([51, 45, 51], DuplicateCardError, "positions 1 and 3"),
        ((0, 1, 2, 3, 0), DuplicateCardError, "positions 1 and 5"),
        ([51, 45, 52], InvalidCardError, "'52' at position 3"),
        ([51, -1, 45], InvalidCardError, "'-1' at position 2"),
        ([51, 45, 2**70], InvalidCardError, "position 3"),
        ("As Kd Xx", InvalidCardError, "'Xx' at position 3"),
    ],
)
def test_evaluate_errors(cards: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message.replace("*", r"\*")):
        cp.evaluate(cards)  # type: ignore[arg-type]


def test_evaluate_type_errors() -> None:
    with pytest.raises(TypeError, match="position 3"):
        cp.evaluate([51, 45, 1.5])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        cp.evaluate(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cp.evaluate(51)  # type: ignore[arg-type]


def random_rows(n: int, width: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.choice(52, size=width, replace=False) for _ in range(n)], dtype=np.uint8)


@pytest.mark.parametrize("width", [3, 5])
@pytest.mark.parametrize("wheel", ["low", "second"])
@pytest.mark.parametrize("threads", [None, 1, 2])
def test_batch_equals_per_call(width: int, wheel: str, threads: int | None) -> None:
    rows = random_rows(5000, width, seed=width * 10 + len(wheel))
    # rows with an A-2-3-4-5 so that the wheel option matters
    if width == 5:
        rows[:50] = [[48, 1, 6, 11, 12], [51, 3, 7, 11, 15]] * 25
    raw = cp.evaluate_batch(rows, wheel=wheel, threads=threads)
    assert raw.dtype == np.uint32 and raw.shape == (len(rows),)
    expect = [cp.evaluate(row.tolist(), wheel=wheel).raw for row in rows]
    np.testing.assert_array_equal(raw, expect)


def test_batch_results_do_not_depend_on_threads_or_layout() -> None:
    rows = random_rows(20000, 5, seed=3)
    expect = cp.evaluate_batch(rows, threads=1)
    np.testing.assert_array_equal(cp.evaluate_batch(rows, threads=2), expect)
    np.testing.assert_array_equal(cp.evaluate_batch(rows), expect)
    # non-contiguous views: every other row, a column-major copy, a strided column slice
    np.testing.assert_array_equal(cp.evaluate_batch(rows[::2], threads=2), expect[::2])
    np.testing.assert_array_equal(cp.evaluate_batch(np.asfortranarray(rows)), expect)
    wide = np.zeros((len(rows), 10), dtype=np.uint8)
    wide[:, ::2] = rows
    assert not wide[:, ::2].flags.c_contiguous
    np.testing.assert_array_equal(cp.evaluate_batch(wide[:, ::2]), expect)
    np.testing.assert_array_equal(cp.evaluate_batch(rows[::-1]), expect[::-1])
    read_only = rows.copy()
    read_only.setflags(write=False)
    np.testing.assert_array_equal(cp.evaluate_batch(read_only), expect)
    # ranks come back as HandRanks
    assert [cp.HandRank(int(r)) for r in expect[:5]] == [
        cp.evaluate(row.tolist()) for row in rows[:5]
    ]


def test_batch_of_no_rows() -> None:
    for width in [3, 5]:
        out = cp.evaluate_batch(np.zeros((0, width), dtype=np.uint8))
        assert out.shape == (0,) and out.dtype == np.uint32


@pytest.mark.parametrize(
    ("codes", "message"),
    [
        (np.zeros((2, 5), dtype=np.int64), "dtype int64"),
        (np.zeros((2, 5), dtype=np.int8), "dtype int8"),
        (np.zeros((2, 5), dtype=np.float64), "dtype float64"),
        (np.zeros((2, 5), dtype=bool), "dtype bool"),
        (np.zeros((2, 4), dtype=np.uint8), r"shape \[2, 4\]"),
        (np.zeros((2, 13), dtype=np.uint8), r"shape \[2, 13\]"),
        (np.zeros((2, 5, 1), dtype=np.uint8), r"shape \[2, 5, 1\]"),
        (np.zeros(5, dtype=np.uint8), r"shape \[5\]"),
        (np.zeros((), dtype=np.uint8), r"shape \[\]"),
        ([[0, 1, 2, 3, 4]], "list"),
        ((0, 1, 2), "tuple"),
        ("As Ks Qs Js Ts", "str"),
        (None, "NoneType"),
    ],
)
def test_batch_rejects_wrong_arrays(codes: object, message: str) -> None:
    with pytest.raises(InvalidShapeError, match=message) as info:
        cp.evaluate_batch(codes)  # type: ignore[arg-type]
    assert "(N, 3) or (N, 5)" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_batch_names_the_row_and_position_of_bad_codes() -> None:
    rows = random_rows(100, 5, seed=9)
    bad = rows.copy()
    bad[37, 2] = 52
    with pytest.raises(InvalidCardError, match="'52' at position 3: codes row 37"):
        cp.evaluate_batch(bad)
    bad = rows.copy()
    bad[99, 4] = 255
    with pytest.raises(InvalidCardError, match="'255' at position 5: codes row 99"):
        cp.evaluate_batch(bad, threads=2)
    bad = rows.copy()
    bad[12, 3] = bad[12, 1]
    with pytest.raises(DuplicateCardError, match="row 12 at positions 2 and 4"):
        cp.evaluate_batch(bad)
    fronts = random_rows(10, 3, seed=9)
    fronts[4, 2] = fronts[4, 0]
    with pytest.raises(DuplicateCardError, match="row 4 at positions 1 and 3"):
        cp.evaluate_batch(fronts)


@pytest.mark.parametrize("threads", [-1, 0])
def test_batch_rejects_bad_thread_counts_naming_the_argument(threads: int) -> None:
    rows = random_rows(10, 5, seed=1)
    with pytest.raises(InvalidArgumentError, match="threads"):
        cp.evaluate_batch(rows, threads=threads)
    with pytest.raises(InvalidArgumentError, match="threads"):
        cp.solve_batch(np.zeros((0, 13), np.uint8), "maceplay", threads=threads)
