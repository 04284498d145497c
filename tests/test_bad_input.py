"""Hostile input at the edges: each case of issue 7 that used to escape as a raw Python error,
or to be silently accepted, now gives the documented exception naming what was wrong.

Wrong Python types (a float where a card code goes, ``bytes`` where text goes, a ``bool``) are
``TypeError``; values of the right type that are out of range are the package's exceptions
(``ValueError`` subclasses from :mod:`chinese_poker.exceptions`)."""

from __future__ import annotations

import json
import math
import os
import re
import time
import warnings
from pathlib import Path
from typing import Any

import chinese_poker as cp
import numpy as np
import pytest
from chinese_poker import strategy_tables as tables
from chinese_poker.exceptions import (
    DuplicateCardError,
    InvalidArgumentError,
    InvalidCardError,
    InvalidRulesError,
    InvalidShapeError,
    InvalidTablesError,
    InvalidTypeError,
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


# -- tables files ------------------------------------------------------------------------------

HAND = "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"


def shipped_file() -> Path:
    found = tables.shipped_tables_path("maceplay", 2)
    assert found is not None
    return found


def open_fds() -> int | None:
    """This process's open file descriptors where the system lists them (/proc on Linux,
    /dev/fd on macOS); None elsewhere (Windows), where the count is not checked."""
    for listing in ("/proc/self/fd", "/dev/fd"):
        if os.path.isdir(listing):
            return len(os.listdir(listing))
    return None


def save(path: Path, compressed: bool = True, **arrays: object) -> Path:
    (np.savez_compressed if compressed else np.savez)(path, **arrays)  # type: ignore[operator]
    return path


def good_arrays(**changes: object) -> dict[str, object]:
    t = tables.read_tables(shipped_file())
    meta = json.dumps(t["meta"])
    return {
        "front": t["front"],
        "middle": t["middle"],
        "back": t["back"],
        "meta": np.array(meta),
        **changes,
    }


def zlib_breaking_flip(data: bytes) -> bytes:
    """``data`` with one byte of a compressed member flipped so that numpy fails inside zlib
    (the case that used to escape as ``zlib.error``)."""
    import io
    import zlib

    for i in range(100, len(data) - 100, 7):
        flipped = bytearray(data)
        flipped[i] ^= 0x55
        try:
            with np.load(io.BytesIO(bytes(flipped))) as z:
                for name in z.files:
                    z[name]
        except zlib.error:
            return bytes(flipped)
        except Exception:
            continue
    raise AssertionError("no single flip breaks the deflate stream")


def damaged_files(tmp: Path) -> dict[str, Path]:
    real = shipped_file().read_bytes()
    files: dict[str, Path] = {}

    def put(name: str, data: bytes) -> None:
        files[name] = tmp / f"{name}.npz"
        files[name].write_bytes(data)

    put("empty", b"")
    put("truncated", real[: len(real) // 2])
    put("header only", real[:30])
    flipped = bytearray(real)
    for i in range(200, 260):
        flipped[i] ^= 0xFF
    put("flipped bytes", bytes(flipped))
    put("bad deflate stream", zlib_breaking_flip(real))
    # a stored (uncompressed) archive with one data byte changed fails its CRC check
    stored = save(tmp / "stored.npz", compressed=False, **good_arrays()).read_bytes()
    bad_crc = bytearray(stored)
    bad_crc[len(stored) // 2] ^= 0x01
    put("bad crc", bytes(bad_crc))
    put("text", b"front,middle,back\n1,2,3\n")
    np.save(tmp / "single.npy", np.zeros(455))
    files["npy"] = tmp / "single.npy"
    files["strings"] = save(tmp / "strings.npz", **good_arrays(front=np.array(["x"] * 455)))
    files["objects"] = save(
        tmp / "objects.npz", compressed=False, **good_arrays(front=np.array([None] * 455))
    )
    files["wrong shape"] = save(tmp / "shape.npz", **good_arrays(back=np.ones((2, 7462))))
    files["negative"] = save(tmp / "neg.npz", **good_arrays(middle=-np.ones(7462)))
    files["nan"] = save(tmp / "nan.npz", **good_arrays(middle=np.full(7462, np.nan)))
    files["all zero"] = save(tmp / "zero.npz", **good_arrays(front=np.zeros(455)))
    files["no meta"] = save(
        tmp / "nometa.npz", **{k: v for k, v in good_arrays().items() if k != "meta"}
    )
    files["meta not json"] = save(tmp / "metajunk.npz", **good_arrays(meta=np.array("{")))
    files["meta deep"] = save(
        tmp / "metadeep.npz", **good_arrays(meta=np.array("[" * 100_000 + "]" * 100_000))
    )
    files["meta list"] = save(tmp / "metalist.npz", **good_arrays(meta=np.array("[1]")))
    files["meta number"] = save(tmp / "metanum.npz", **good_arrays(meta=np.array(3.0)))
    files["scoop rate 2"] = save(
        tmp / "scoop.npz", **good_arrays(meta=np.array(json.dumps({"key": "k", "scoop_rate": 2})))
    )
    files["directory"] = tmp / "a_directory"
    files["directory"].mkdir()
    files["missing"] = tmp / "missing.npz"
    return files


def test_every_damaged_tables_file_is_an_invalid_tables_error(tmp_path: Path) -> None:
    files = damaged_files(tmp_path)
    before = open_fds()
    for name, path in files.items():
        with pytest.raises(InvalidTablesError) as info:
            cp.solve(HAND, "maceplay", 2, cp.TableEV(path))
        assert str(path) in str(info.value), name
        assert len(str(info.value)) < 400, name
        with pytest.raises(InvalidTablesError):
            tables.read_tables(path)
    # every handle was closed, damaged archives included
    assert open_fds() == before


def test_damaged_tables_errors_say_what_is_wrong(tmp_path: Path) -> None:
    files = damaged_files(tmp_path)
    expect = {
        "empty": "empty file",
        "text": "not an .npz archive",
        "bad crc": "CRC",
        "flipped bytes": "cannot be read",
        "npy": "single .npy array",
        "strings": "front must be an array of numbers",
        "objects": "front must be an array of numbers, got object",
        "wrong shape": r"back must have 7462 classes, got shape \(2, 7462\)",
        "negative": "middle is not a distribution",
        "all zero": "front is not a distribution",
        "no meta": "no meta",
        "meta deep": "RecursionError",
        "bad deflate stream": "zlib.error",
        "truncated": "zipfile.BadZipFile",
        "meta list": "JSON object",
        "meta number": "JSON text",
        "scoop rate 2": "scoop_rate must be a probability",
        "missing": "No such file",
    }
    for name, message in expect.items():
        with pytest.raises(InvalidTablesError, match=message):
            tables.read_tables(files[name])


def test_tables_errors_are_still_invalid_rules_errors(tmp_path: Path) -> None:
    (tmp_path / "e.npz").write_bytes(b"")
    with pytest.raises(InvalidRulesError):
        cp.solve(HAND, "maceplay", 2, cp.TableEV(tmp_path / "e.npz"))
    with pytest.raises(InvalidTypeError, match='"tables": expected a path'):
        cp.solve(HAND, "maceplay", 2, cp.TableEV(5))  # type: ignore[arg-type]


def test_huge_entries_normalise_instead_of_vanishing(tmp_path: Path) -> None:
    uniform = save(
        tmp_path / "one.npz",
        **good_arrays(front=np.ones(455), middle=np.ones(7462), back=np.ones(7462)),
    )
    huge = save(
        tmp_path / "huge.npz",
        **good_arrays(
            front=np.full(455, 1e308), middle=np.full(7462, 1e308), back=np.full(7462, 1e308)
        ),
    )
    t = tables.read_tables(huge)
    for row in ("front", "middle", "back"):
        assert np.all(t[row] > 0)
        assert math.isclose(t[row].sum(), 1.0)
        assert np.allclose(t[row], tables.read_tables(uniform)[row])
    a = cp.solve(HAND, "maceplay", 2, cp.TableEV(huge))
    b = cp.solve(HAND, "maceplay", 2, cp.TableEV(uniform))
    assert a.value == b.value and a.setting == b.setting


def test_a_tables_file_rewritten_in_place_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "t.npz"
    save(path, **good_arrays())
    first = cp.solve(HAND, "maceplay", 2, cp.TableEV(path)).value
    assert cp.solve(HAND, "maceplay", 2, cp.TableEV(path)).value == first  # cached
    flat = good_arrays(front=np.ones(455), middle=np.ones(7462), back=np.ones(7462))
    save(path, **flat)
    second = cp.solve(HAND, "maceplay", 2, cp.TableEV(path)).value
    assert second != first
    path.unlink()
    with pytest.raises(InvalidTablesError, match="No such file"):
        cp.solve(HAND, "maceplay", 2, cp.TableEV(path))


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"seed": -1}, "seed"),
        ({"seed": 2**64}, "seed"),
        ({"deals": -1}, "deals"),
        ({"deals": 0}, "deals"),
        ({"deals": 10**12}, "deals"),
    ],
)
def test_training_arguments_out_of_range(kwargs: dict[str, int], name: str) -> None:
    with pytest.raises(InvalidArgumentError, match=f'argument "{name}"'):
        tables.train_tables("maceplay", 2, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(InvalidArgumentError, match=f'argument "{name}"'):
        tables.train_all("/nonexistent-dir-never-created", **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"improve_hands": -1}, "improve_hands"),
        ({"improve_hands": 10**12}, "improve_hands"),
        ({"improve_samples": 1}, "improve_samples"),
        ({"improve_samples": 10**9}, "improve_samples"),
    ],
)
def test_improvement_arguments_out_of_range(kwargs: dict[str, int], name: str) -> None:
    start = time.perf_counter()
    with pytest.raises(InvalidArgumentError, match=f'argument "{name}"'):
        tables.train_tables("maceplay", 2, **kwargs)  # type: ignore[arg-type]
    assert time.perf_counter() - start < 2  # refused before any training


def test_a_bad_start_file_is_named_before_training(tmp_path: Path) -> None:
    with pytest.raises(InvalidTablesError, match="No such file"):
        tables.train_tables("maceplay", 2, start=tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a tables file")
    with pytest.raises(InvalidTablesError, match="junk.npz"):
        tables.train_tables("maceplay", 2, start=tmp_path / "junk.npz")
    # tables of another table size: both keys named
    other = tables.shipped_tables_path("maceplay", 4)
    with pytest.raises(InvalidTablesError, match="another rule set or table size"):
        tables.train_tables("maceplay", 2, start=other, improve_hands=10)
    with pytest.raises(TypeError, match="start"):
        tables.train_tables("maceplay", 2, start=3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="improve_hands"):
        tables.train_tables("maceplay", 2, improve_hands=1.5)  # type: ignore[arg-type]


def test_training_argument_types() -> None:
    with pytest.raises(TypeError, match="seed"):
        tables.train_tables("maceplay", 2, seed=True)
    with pytest.raises(TypeError, match="deals"):
        tables.train_tables("maceplay", 2, deals=100.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="progress"):
        tables.train_tables("maceplay", 2, deals=10, progress=3)  # type: ignore[arg-type]


def test_training_says_whether_it_converged() -> None:
    with pytest.warns(RuntimeWarning, match="without converging"):
        res = tables.train_tables("one_six", 2, seed=1, deals=50)
    assert res["meta"]["converged"] is False
    assert res["meta"]["iterations"] == tables.MAX_ITERATIONS
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        res = tables.train_tables("one_six", 2, seed=1, deals=2000)
    assert res["meta"]["converged"] is True
    assert res["meta"]["deltas"][-1] < tables.TOLERANCE


def test_an_unwritable_output_fails_before_training(tmp_path: Path) -> None:
    start = time.perf_counter()
    with pytest.raises(InvalidArgumentError, match='argument "out"'):
        tables.train_tables("maceplay", 4, out="/nonexistent-dir/x.npz")
    (tmp_path / "d.npz").mkdir()
    with pytest.raises(InvalidArgumentError, match="is a directory"):
        tables.train_tables("maceplay", 4, out=tmp_path / "d.npz")
    assert time.perf_counter() - start < 2


def test_the_written_path_is_reported(tmp_path: Path) -> None:
    with pytest.warns(RuntimeWarning):
        res = tables.train_tables("one_six", 2, deals=50, out=tmp_path / "ro")
    assert res["meta"]["path"] == str(tmp_path / "ro.npz")
    assert tables.read_tables(tmp_path / "ro.npz")["meta"]["converged"] is False
    assert not (tmp_path / "ro").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["ro.npz"]  # no temporary file left


def test_an_interrupted_write_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "t.npz"
    save(path, **good_arrays())
    before = path.read_bytes()
    trained = {**good_arrays(), "scoop_rate": 0.1, "key": "k"}

    class Boom(Exception):
        pass

    def explode(*args: object, **kwargs: object) -> None:
        raise Boom

    real = np.savez_compressed
    try:
        np.savez_compressed = explode  # type: ignore[assignment]
        with pytest.raises(Boom):
            tables.write_tables(path, trained, {})
    finally:
        np.savez_compressed = real
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["t.npz"]


def test_an_interrupted_train_all_leaves_a_consistent_directory(tmp_path: Path) -> None:
    out = tmp_path / "tables"
    logged: list[str] = []

    def stop_after_three(line: str) -> None:
        logged.append(line)
        if len(logged) == 3:
            raise KeyboardInterrupt

    with warnings.catch_warnings(), pytest.raises(KeyboardInterrupt):
        warnings.simplefilter("ignore")
        tables.train_all(out, deals=20, log=stop_after_three)
    # no index yet, no temporary files, and every file written is complete
    assert not (out / "tables.json").exists()
    written = sorted(out.iterdir())
    assert written and all(p.name.startswith("tables_") and p.suffix == ".npz" for p in written)
    for p in written:
        tables.read_tables(p)
    # a complete run indexes every file; the next interrupted run keeps that index usable
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        entries = tables.train_all(out, deals=20, log=lambda line: None)
    index = json.loads((out / "tables.json").read_text())
    assert {e["file"] for e in index["tables"]} == {p.name for p in out.iterdir()} - {"tables.json"}
    assert all("converged" in e for e in entries)
    logged.clear()
    with warnings.catch_warnings(), pytest.raises(KeyboardInterrupt):
        warnings.simplefilter("ignore")
        tables.train_all(out, deals=20, seed=7, log=stop_after_three)
    assert json.loads((out / "tables.json").read_text()) == index
    for entry in index["tables"]:
        assert tables.read_tables(out / entry["file"])["meta"]["key"] == entry["key"]


# -- the command line: tests/test_cli.py ------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: cp.Card(True),
        lambda: cp.evaluate(b"As Kd Qh"),
        lambda: cp.evaluate([True, 2, 3]),
        lambda: cp.CardSet.from_mask(1.5),
        lambda: cp.HandRank("3"),
    ],
)
def test_wrong_types_are_package_errors_and_type_errors(call: Any) -> None:
    from chinese_poker.exceptions import ChinesePokerError, InvalidTypeError

    with pytest.raises(InvalidTypeError) as info:
        call()
    assert isinstance(info.value, TypeError) and isinstance(info.value, ChinesePokerError)


# -- what an error names, as attributes ---------------------------------------------------------


def test_errors_carry_what_they_name_as_attributes() -> None:
    from chinese_poker.exceptions import InvalidDecisionError

    with pytest.raises(InvalidCardError) as card:
        cp.parse_cards("As Kx")
    assert (card.value.position, card.value.line, card.value.player) == (2, None, None)
    with pytest.raises(DuplicateCardError) as twice:
        cp.parse_cards("As Ks As")
    assert twice.value.position == 3
    with pytest.raises(InvalidShapeError) as shape:
        cp.parse_hands([HAND, "As Ks"])
    assert shape.value.line == 1 and str(shape.value).startswith("line 1: ")
    with pytest.raises(InvalidCardError) as lined:
        cp.parse_hands([HAND, HAND.replace("2d", "Xx")])
    assert (lined.value.line, lined.value.position) == (1, 13)
    with pytest.raises(InvalidRulesError) as rules:
        cp.RuleSet.from_dict({**cp.presets.MACEPLAY.to_dict(), "surrender": -1})
    assert rules.value.field == "surrender"
    with pytest.raises(InvalidRulesError) as python_side:
        cp.RuleSet.from_dict({**cp.presets.MACEPLAY.to_dict(), "scoop": 2})
    assert python_side.value.field == "scoop"
    with pytest.raises(InvalidArgumentError) as argument:
        cp.solve(HAND, "maceplay", 2, top_k=0)
    assert argument.value.argument == "top_k"
    p0 = ("Qs Qh Qd", "5s 5h 5d Ks Kh", "9s 9h 9d 9c 2s")
    with pytest.raises(InvalidDecisionError) as decision:
        cp.settle([p0, cp.Surrender()], "maceplay")
    assert (decision.value.player, decision.value.row) == (1, None)
    with pytest.raises(InvalidCardError) as in_row:
        cp.settle([p0, ("Ac Kc Xx", "Jc Jd 8s 6c 4d", "Ah Th 6h 3h 2h")], "maceplay")
    assert (in_row.value.player, in_row.value.row, in_row.value.position) == (1, "front", 3)
    with pytest.raises(DuplicateCardError) as held:
        cp.settle([p0, ("Qs Kc 7d", "Jc Jd 8s 6c 4d", "Ah Th 6h 3h 2h")], "maceplay")
    assert held.value.player == 1 and held.value.line is None


def test_errors_raised_without_attributes_default_to_none() -> None:
    error = InvalidShapeError("a message")
    assert (error.field, error.position, error.line, error.player, error.row, error.argument) == (
        None,
        None,
        None,
        None,
        None,
        None,
    )
