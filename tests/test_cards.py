"""Cards: every accepted spelling, the error cases, and Card/CardSet as immutable values."""

from __future__ import annotations

import copy
import pickle
import re

import chinese_poker as cp
import pytest
from chinese_poker.exceptions import (
    ChinesePokerError,
    DuplicateCardError,
    InvalidArgumentError,
    InvalidCardError,
)

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SYMBOLS = "♣♦♥♠"
HOLLOW_SYMBOLS = "♧♢♡♤"
ALL_CODES = range(52)


def spellings(code: int) -> list[str]:
    """Every way the package promises to read the card with this code."""
    rank, suit = RANKS[code // 4], SUITS[code % 4]
    ranks = [rank, rank.lower()] + (["10"] if rank == "T" else [])
    suits = [suit, suit.upper(), SYMBOLS[code % 4], HOLLOW_SYMBOLS[code % 4]]
    return [r + s for r in dict.fromkeys(ranks) for s in suits]


def test_codes_follow_rank_times_four_plus_suit() -> None:
    assert cp.Card.parse("2c").code == 0
    assert cp.Card.parse("2s").code == 3
    assert cp.Card.parse("3c").code == 4
    assert cp.Card.parse("As").code == 51
    for code in ALL_CODES:
        card = cp.Card(code)
        assert (card.code, card.rank, card.suit) == (code, code // 4, code % 4)
        assert int(card) == code


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_spelling_round_trips(code: int) -> None:
    card = cp.Card(code)
    canonical = RANKS[code // 4] + SUITS[code % 4]
    assert str(card) == canonical
    assert repr(card) == f"Card.parse('{canonical}')"
    assert card.pretty() == RANKS[code // 4] + SYMBOLS[code % 4]
    for text in [*spellings(code), card.pretty()]:
        assert cp.Card.parse(text) == card, text
        assert cp.Card.parse(f"  {text} ") == card, text
        assert cp.parse_cards(text) == [card], text
    assert cp.Card.parse(str(card)) == card


def test_the_spellings_named_in_the_docs() -> None:
    ace_spades = cp.Card(51)
    for text in ["As", "as", "AS", "A♠", "a♠"]:
        assert cp.Card.parse(text) == ace_spades
    assert cp.Card.parse("10h") == cp.Card.parse("Th") == cp.Card(34)


@pytest.mark.parametrize("variant", range(4))
@pytest.mark.parametrize("separator", [" ", ",", ", ", " , ", "\t", "\n", ",,", "  "])
def test_a_whole_deck_with_any_separator(separator: str, variant: int) -> None:
    words = [spellings(code)[(code + variant) % len(spellings(code))] for code in ALL_CODES]
    cards = cp.parse_cards(separator.join(words))
    assert [c.code for c in cards] == list(ALL_CODES)
    # leading and trailing separators are ignored too
    assert cp.parse_cards(f"{separator}{separator.join(words)}{separator}") == cards


def test_formatted_cards_parse_back() -> None:
    cards = [cp.Card(c) for c in ALL_CODES]
    assert cp.parse_cards(" ".join(map(str, cards))) == cards
    assert cp.parse_cards(" ".join(c.pretty() for c in cards)) == cards
    assert cp.parse_cards(",".join(map(str, cards))) == cards
    assert cp.parse_cards("") == []
    assert cp.parse_cards(" , ") == []


@pytest.mark.parametrize(
    ("text", "token", "position"),
    [
        ("As Kd Xh", "Xh", 3),  # unknown rank
        ("Ax", "Ax", 1),  # unknown suit
        ("As h", "h", 2),  # missing rank
        ("1h", "1h", 1),
        ("11h", "11h", 1),
        ("AAs", "AAs", 1),
        ("As,Kd,Qh,10", "10", 4),  # a rank without a suit
        ("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 0c", "0c", 14),
        ("As Kd 🂡", "🂡", 3),
    ],
)
def test_invalid_cards_name_token_and_position(text: str, token: str, position: int) -> None:
    with pytest.raises(InvalidCardError) as info:
        cp.parse_cards(text)
    message = str(info.value)
    assert f"'{token}'" in message
    assert f"position {position}" in message
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, ChinesePokerError)


@pytest.mark.parametrize(
    ("text", "card", "first", "second"),
    [
        ("As Kd as", "As", 1, 3),
        ("A♠, as", "As", 1, 2),
        ("2c 3d 4h 3D", "3d", 2, 4),
        ("Th 9h 10h", "Th", 1, 3),
    ],
)
def test_duplicates_name_the_card_and_both_positions(
    text: str, card: str, first: int, second: int
) -> None:
    with pytest.raises(DuplicateCardError) as info:
        cp.parse_cards(text)
    assert card in str(info.value)
    assert f"positions {first} and {second}" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_card_parse_wants_exactly_one_card() -> None:
    for text in ["", "As Kd", " , "]:
        with pytest.raises(InvalidCardError):
            cp.Card.parse(text)
    with pytest.raises(InvalidCardError, match="'Zz' at position 1"):
        cp.Card.parse("Zz")


@pytest.mark.parametrize("code", [-1, 52, 255, 256, 10**6])
def test_card_codes_out_of_range(code: int) -> None:
    with pytest.raises(InvalidCardError, match=re.escape(f"'{code}'")):
        cp.Card(code)


def test_wrong_types_are_type_errors() -> None:
    with pytest.raises(TypeError):
        cp.parse_cards(123)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        cp.Card("As")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="position 2"):
        cp.CardSet(["As", 1.5])  # type: ignore[list-item]


def test_cards_are_immutable() -> None:
    card = cp.Card(51)
    for attribute in ["code", "rank", "suit", "other"]:
        with pytest.raises(AttributeError):
            setattr(card, attribute, 3)
    cards = cp.CardSet("As Kd")
    for attribute in ["mask", "other"]:
        with pytest.raises(AttributeError):
            setattr(cards, attribute, 3)
    assert card == cp.Card(51) and cards == cp.CardSet("As Kd")


def test_cards_hash_and_order_by_code() -> None:
    assert len({cp.Card.parse(s) for s in spellings(51)}) == 1
    assert hash(cp.Card.parse("as")) == hash(cp.Card(51))
    shuffled = [cp.Card((c * 7) % 52) for c in ALL_CODES]
    assert [c.code for c in sorted(shuffled)] == list(ALL_CODES)
    assert cp.Card(0) < cp.Card(1) <= cp.Card(1) < cp.Card(51)
    assert max(shuffled) == cp.Card.parse("As")
    assert cp.Card(3) != cp.Card(4)
    assert cp.Card(3) != 3  # a card is not its code


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_cards_and_card_sets_pickle(protocol: int) -> None:
    for code in ALL_CODES:
        card = cp.Card(code)
        back = pickle.loads(pickle.dumps(card, protocol=protocol))
        assert back == card and type(back) is cp.Card
    for text in ["", "As", "As Kd 2c", " ".join(RANKS[i // 4] + SUITS[i % 4] for i in ALL_CODES)]:
        cards = cp.CardSet(text)
        back = pickle.loads(pickle.dumps(cards, protocol=protocol))
        assert back == cards and type(back) is cp.CardSet
        assert hash(back) == hash(cards)


def test_copies_are_equal() -> None:
    assert copy.copy(cp.Card(7)) == cp.Card(7)
    assert copy.deepcopy(cp.CardSet("As Kd")) == cp.CardSet("As Kd")


def test_card_set_is_a_set_of_cards() -> None:
    cards = cp.CardSet("2c, Kd As")
    assert len(cards) == 3
    assert [str(c) for c in cards] == ["As", "Kd", "2c"]  # highest card first
    assert cards.cards() == list(cards)
    assert cards.codes() == [51, 45, 0]
    assert cards.mask == (1 << 51) | (1 << 45) | 1
    assert cp.CardSet.from_mask(cards.mask) == cards
    assert str(cards) == "As Kd 2c"
    assert repr(cards) == "CardSet('As Kd 2c')"
    assert cp.Card(51) in cards and "as" in cards and 45 in cards
    assert "Ah" not in cards
    # order and spelling never matter
    assert cards == cp.CardSet("a♠ 2C kd") == cp.CardSet([0, "Kd", cp.Card(51)])
    assert hash(cards) == hash(cp.CardSet([cp.Card(0), cp.Card(45), cp.Card(51)]))
    assert cp.CardSet(cards) == cards
    other = cp.CardSet("As Qh")
    assert cards | other == cp.CardSet("As Kd Qh 2c")
    assert cards - other == cp.CardSet("Kd 2c")
    assert cards & other == cp.CardSet("As")
    assert len(cp.CardSet()) == 0 and cp.CardSet() == cp.CardSet("")
    assert len(cp.CardSet.from_mask((1 << 52) - 1)) == 52


def test_card_set_errors() -> None:
    with pytest.raises(DuplicateCardError, match="positions 1 and 2"):
        cp.CardSet("As as")
    with pytest.raises(DuplicateCardError, match="positions 1 and 3"):
        cp.CardSet([51, 50, cp.Card(51)])
    with pytest.raises(InvalidCardError, match="position 2"):
        cp.CardSet([51, 52])
    with pytest.raises(InvalidCardError, match="'Xx' at position 1"):
        cp.CardSet(["Xx"])
    with pytest.raises(InvalidArgumentError, match="mask"):
        cp.CardSet.from_mask(1 << 52)
