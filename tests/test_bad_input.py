"""Hostile input at the edges: each case of issue 7 that used to escape as a raw Python error,
or to be silently accepted, now gives the documented exception naming what was wrong.

Wrong Python types (a float where a card code goes, ``bytes`` where text goes, a ``bool``) are
``TypeError``; values of the right type that are out of range are the package's exceptions
(``ValueError`` subclasses from :mod:`chinese_poker.exceptions`)."""

from __future__ import annotations

import re

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker.exceptions import (
    DuplicateCardError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidShapeError,
)

# -- cards and ranks ---------------------------------------------------------------------------


@pytest.mark.parametrize("code", [2**63, 2**64, -(2**63) - 1, 10**30])
def test_huge_card_codes_are_invalid_cards_not_overflow(code: int) -> None:
    with pytest.raises(InvalidCardError, match=re.escape(f"'{str(code)[:20]}")):
        cp.Card(code)
    with pytest.raises(InvalidCardError, match="position 2"):
        cp.CardSet([51, code])
    with pytest.raises(InvalidCardError, match="position 3"):
        cp.evaluate([51, 50, code])


def test_an_int_too_long_to_print_is_still_an_invalid_card() -> None:
    # str() of an int past 4300 digits raises ValueError; the message must not depend on it
    with pytest.raises(InvalidCardError, match="thousands of digits"):
        cp.Card(10**5000)


@pytest.mark.parametrize("mask", [-1, 2**52, 2**63, 2**64, 2**200])
def test_bad_masks_name_the_argument(mask: int) -> None:
    with pytest.raises(InvalidArgumentError, match='argument "mask"'):
        cp.CardSet.from_mask(mask)


def test_masks_and_codes_accept_numpy_integers() -> None:
    assert cp.CardSet.from_mask(np.uint64(7)) == cp.CardSet([0, 1, 2])
    assert cp.Card(np.int64(51)) == cp.Card(np.uint8(51)) == cp.Card(51)
    assert cp.evaluate([np.uint8(51), np.int32(47), np.int64(43)]) == cp.evaluate("As Ks Qs")
    assert cp.evaluate(np.array([51, 47, 43], dtype=np.uint8)) == cp.evaluate("As Ks Qs")
    assert cp.HandRank(np.uint32(cp.evaluate("As Ks Qs").raw)) == cp.evaluate("As Ks Qs")


@pytest.mark.parametrize("raw", [-1, 2**32, 2**63, 2**64])
def test_bad_hand_rank_raw_values_name_the_argument(raw: int) -> None:
    with pytest.raises(InvalidArgumentError, match=f'argument "raw".*got {raw}'):
        cp.HandRank(raw)


def test_bools_are_not_card_codes() -> None:
    with pytest.raises(TypeError, match="bool"):
        cp.Card(True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="position 1: .*got bool"):
        cp.evaluate([True, 2, 3])
    with pytest.raises(TypeError, match="position 2: .*got bool"):
        cp.CardSet([5, False])
    with pytest.raises(TypeError, match="bool"):
        cp.HandRank(True)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="bool"):
        cp.CardSet.from_mask(True)  # type: ignore[arg-type]


@pytest.mark.parametrize("data", [b"As Kd Qh", bytearray(b"As Kd Qh"), memoryview(b"As Kd Qh")])
def test_bytes_are_not_read_as_codes(data: object) -> None:
    with pytest.raises(TypeError, match="decode"):
        cp.evaluate(data)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="decode"):
        cp.CardSet(data)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="decode"):
        cp.parse_cards(data)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="decode"):
        cp.Card.parse(data)  # type: ignore[arg-type]


@pytest.mark.parametrize("selector", ["\ufe0f", "\ufe0e"])
def test_suits_with_a_variation_selector_parse(selector: str) -> None:
    text = f"A♠{selector} K♥{selector}, Q♦{selector},J♣{selector} T♠"
    assert cp.parse_cards(text) == cp.parse_cards("As Kh Qd Jc Ts")
    assert cp.Card.parse(f"A♠{selector}") == cp.Card(51)
    assert cp.evaluate(f"A♠{selector} K♠{selector} Q♠{selector}") == cp.evaluate("As Ks Qs")


def test_a_huge_bad_token_is_clipped_in_the_message() -> None:
    token = "x" * 10_000_000
    with pytest.raises(InvalidCardError) as info:
        cp.parse_cards(f"As {token}")
    message = str(info.value)
    assert len(message) < 120
    assert f"'{'x' * 20}…' at position 2" in message
    with pytest.raises(InvalidCardError) as info:
        cp.Card.parse(token)
    assert len(str(info.value)) < 120


def test_lone_surrogates_are_invalid_cards() -> None:
    with pytest.raises(InvalidCardError, match="surrogate"):
        cp.parse_cards("As \ud800")
    with pytest.raises(InvalidCardError, match="position 2"):
        cp.evaluate(["As", "\udfff", "Kd"])


def test_an_endless_iterable_stops_at_its_first_repeat() -> None:
    import itertools

    with pytest.raises(DuplicateCardError, match="positions 1 and 2"):
        cp.evaluate(itertools.repeat(3))
    with pytest.raises(InvalidCardError, match="position 53"):
        cp.CardSet(itertools.count())


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: cp.evaluate("As"), "got 1 card$"),
        (lambda: cp.evaluate("As Kd"), "got 2 cards$"),
        (lambda: cp.Card.parse("As Kd"), "got 2 cards$"),
        (lambda: cp.Card.parse(""), "empty card|got 0 cards$"),
        (lambda: cp.Setting("As", "Kd Qd Jd Td 9d", "8d 7d 6d 5d 4d"), "got 1 card$"),
        (lambda: cp.find_naturals("As", "maceplay"), "got 1 card$"),
    ],
)
def test_counts_in_messages_agree_with_their_number(call: object, message: str) -> None:
    with pytest.raises((InvalidShapeError, InvalidCardError), match=message):
        call()  # type: ignore[operator]
