"""Strategy-tables files: the outcome tables behind the [`TableEV`][chinese_poker.TableEV]
objective, as ``.npz`` files, their index, the cache of loaded tables, and training.

A tables file holds three row distributions (``front``: 455 classes, ``middle`` and ``back``:
7,462 classes each, weakest first) and ``meta``, a JSON object with at least ``scoop_rate`` (a
probability) and ``key`` (the rule-set fields the tables depend on), and, from training, the
``model`` of what the independent-rows formula misses (scoop and sweep factors, opponents'
natural and surrender rates, and the calibration map; ``src/solve/model.rs``). Reading one
never raises
anything but [`InvalidTablesError`][chinese_poker.exceptions.InvalidTablesError] naming the file and
what is wrong with it, whatever the bytes on disk, and never leaves the file open.

Where the tables of a rule set and table size come from
([`load_tables()`][chinese_poker.strategy_tables.load_tables]), in order: a file the caller names;
the user tables directory ([`user_tables_dir()`][chinese_poker.strategy_tables.user_tables_dir]:
``$CHINESE_POKER_TABLES``, else the platform's user data directory), where
[`install_tables()`][chinese_poker.strategy_tables.install_tables] and ``train_tables(...,
install=True)`` put tables under their key; the shipped tables; and only then, with a warning, the
plain tables of the rule set's wheel.

Loaded tables are cached by rule set, table size and file (its path, modification time, size and
inode), so a file rewritten at the same path is read again. Files and the indexes are written
atomically (a temporary file in the same directory, then `os.replace()`), readable by other
accounts as the umask allows (``0o666 & ~umask``, so 0644 under the usual 022): an interrupted
``train_all`` leaves every file complete, and an index lists only complete files.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import secrets
import tempfile
import time
import warnings
import zipfile
import zlib
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import IO, Any, TypeAlias

import numpy as np
import numpy.typing as npt
import platformdirs

from . import _core
from ._args import flag, whole
from ._args import players as _players
from ._args import seed as _seed
from ._core import TablesId
from .exceptions import (
    ChinesePokerError,
    InvalidArgumentError,
    InvalidTablesError,
    InvalidTypeError,
    OutputError,
)
from .rules import RuleSet, _rule_set

__all__ = [
    "DEFAULT_DEALS",
    "FallbackTablesWarning",
    "TablesId",
    "MAX_DEALS",
    "TABLES_ENV",
    "install_tables",
    "installed_tables",
    "installed_tables_path",
    "load_tables",
    "progress_text",
    "read_tables",
    "shipped_tables_path",
    "train_all",
    "train_tables",
    "user_tables_dir",
    "which_tables",
    "write_tables",
]

TABLES_DIR = "data"
INDEX_FILE = _core.TABLES_INDEX
#: The environment variable naming the user tables directory (a club server's shared directory,
#: a test's temporary one); unset or empty: ``tables`` in the platform's user data directory.
TABLES_ENV = "CHINESE_POKER_TABLES"
_APP = "chinese-poker"  # the user data directory's name (platformdirs)
FRONT_CLASSES: int = _core.FRONT_CLASSES
FIVE_CLASSES: int = _core.FIVE_CLASSES
ROWS = (("front", FRONT_CLASSES), ("middle", FIVE_CLASSES), ("back", FIVE_CLASSES))

# Training's defaults and limits (the core's `solve::train`): training stops when no row's
# cumulative distribution moves by more than TOLERANCE (after at least MIN_ITERATIONS), or at
# MAX_ITERATIONS, when it says it did not converge.
DEFAULT_DEALS: int = _core.TRAIN_DEFAULTS["deals"]
MAX_DEALS: int = _core.TRAIN_DEFAULTS["max_deals"]
MIN_ITERATIONS: int = _core.TRAIN_DEFAULTS["min_iters"]
MAX_ITERATIONS: int = _core.TRAIN_DEFAULTS["max_iters"]
TOLERANCE: float = _core.TRAIN_DEFAULTS["tol"]
# The improvement phase's defaults and limits (the core's `solve::improve`): hands valued (two
# thirds fit, one third held out), Monte Carlo samples per hand, plays valued per hand.
IMPROVE_HANDS: int = _core.TRAIN_DEFAULTS["improve_hands"]
MAX_IMPROVE_HANDS: int = _core.TRAIN_DEFAULTS["max_improve_hands"]
IMPROVE_SAMPLES: int = _core.TRAIN_DEFAULTS["improve_samples"]
IMPROVE_CANDIDATES: int = _core.TRAIN_DEFAULTS["improve_candidates"]
# The phases training reports its progress in, in the order they run (the core's names).
FICTITIOUS_PLAY, IMPROVEMENT, CALIBRATION = _core.TRAINING_PHASES

# What reading a damaged file can raise, from numpy, zipfile, zlib and json: each becomes an
# InvalidTablesError. Every case is in tests/test_bad_input.py.
_READ_ERRORS = (
    OSError,  # missing, unreadable, a directory
    EOFError,  # empty file
    ValueError,  # not an .npy/.npz, pickled objects, bad array header
    zipfile.BadZipFile,  # truncated, bad CRC
    zlib.error,  # flipped bytes inside a compressed member
    KeyError,  # a member listed but missing
    TypeError,
    UnicodeDecodeError,
    RecursionError,  # deeply nested JSON metadata
    MemoryError,  # an array header claiming terabytes
)


def _check_players(players: object) -> int:
    return _players("players", players)


def _path_arg(name: str, path: object) -> Path:
    if isinstance(path, str | os.PathLike):
        return Path(path)
    raise InvalidTypeError(
        f"{name}: expected a path (str or os.PathLike), got {type(path).__name__}"
    )


# -- reading ---------------------------------------------------------------------------------


def _bad(path: str | Path, what: str) -> InvalidTablesError:
    return InvalidTablesError(f"tables file {str(path)!r}: {what}")


def _distribution(path: str | Path, name: str, size: int, arr: object) -> npt.NDArray[np.float64]:
    if not isinstance(arr, np.ndarray) or arr.dtype.kind not in "iuf":
        kind = type(arr).__name__ if not isinstance(arr, np.ndarray) else f"{arr.dtype} array"
        raise _bad(path, f"{name} must be an array of numbers, got {kind}")
    if arr.shape != (size,):
        raise _bad(path, f"{name} must have {size} classes, got shape {arr.shape}")
    values = arr.astype(np.float64)
    if not np.all(np.isfinite(values)) or np.any(values < 0):
        raise _bad(path, f"{name} is not a distribution (negative, NaN or infinite entries)")
    top = float(values.max())
    if top <= 0:
        raise _bad(path, f"{name} is not a distribution (all zero)")
    # Scaled by the largest entry first: summing entries near 1e308 directly would overflow to
    # inf and turn every probability into 0.
    values /= top
    values /= values.sum()
    return values


def _meta(path: str | Path, raw: object) -> dict[str, Any]:
    if not isinstance(raw, np.ndarray) or raw.shape != () or raw.dtype.kind != "U":
        raise _bad(path, "meta must be a JSON text")
    meta = json.loads(str(raw))
    if not isinstance(meta, dict):
        raise _bad(path, f"meta must be a JSON object, got {type(meta).__name__}")
    rate = meta.get("scoop_rate")
    if isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 1:
        raise _bad(path, f"meta scoop_rate must be a probability, got {rate!r}")
    if not isinstance(meta.get("key"), str):
        raise _bad(path, f"meta key must be text, got {meta.get('key')!r}")
    if meta.get("wheel", "low") not in ("low", "second"):
        raise _bad(path, f"meta wheel must be 'low' or 'second', got {meta.get('wheel')!r}")
    return meta


_NPY_MAGIC = b"\x93NUMPY"
_ZIP_MAGIC = b"PK\x03\x04"


_MAX_META_CHARS = 1 << 18
"""The longest ``meta`` text a tables file may hold (its JSON is a few hundred characters)."""


def _row_check(name: str, size: int) -> Callable[[tuple[int, ...], np.dtype[Any]], str | None]:
    def check(shape: tuple[int, ...], dtype: np.dtype[Any]) -> str | None:
        if dtype.kind not in "iuf" or dtype.itemsize > 16:
            return f"{name} must be an array of numbers, got {dtype} array"
        if shape != (size,):
            return f"{name} must have {size} classes, got shape {shape}"
        return None

    return check


def _meta_check(shape: tuple[int, ...], dtype: np.dtype[Any]) -> str | None:
    if shape != () or dtype.kind != "U":
        return "meta must be a JSON text"
    if dtype.itemsize > 4 * _MAX_META_CHARS:
        return f"meta is longer than {_MAX_META_CHARS} characters"
    return None


def _member(
    path: Path,
    z: zipfile.ZipFile,
    name: str,
    check: Callable[[tuple[int, ...], np.dtype[Any]], str | None],
) -> npt.NDArray[Any] | None:
    """The archive member ``name`` (``name.npy``, or ``name`` as numpy also accepts) as an
    array, ``None`` where there is none. Its shape and dtype are read from its ``.npy`` header
    and refused by ``check`` before any of its data is read, and no more than that shape's
    bytes are ever inflated: a small file claiming, or inflating to, a huge array costs
    nothing."""
    names = set(z.namelist())
    member = next((n for n in (f"{name}.npy", name) if n in names), None)
    if member is None:
        return None
    with z.open(member) as f:
        version = np.lib.format.read_magic(f)
        read_header = (
            np.lib.format.read_array_header_1_0
            if version == (1, 0)
            else np.lib.format.read_array_header_2_0
        )
        shape, fortran, dtype = read_header(f)
        why = check(tuple(shape), dtype)
        if why is not None:
            raise _bad(path, why)
        count = math.prod(shape)
        data = f.read(count * dtype.itemsize)
        if len(data) != count * dtype.itemsize:
            raise _bad(path, f"cannot be read ({name} is truncated)")
        if f.read(1):
            raise _bad(path, f"cannot be read ({name} holds more than its header says)")
    arr = np.frombuffer(data, dtype=dtype, count=count)
    return arr.reshape(shape, order="F" if fortran else "C")


def read_tables(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Reads and validates a tables file.

    Args:
        path: The ``.npz`` file.

    Returns:
        The three row distributions (``front``, ``middle``, ``back``: normalised ``float64``
        arrays) and ``meta``.

    Raises:
        InvalidTablesError: Anything wrong with the file (missing, empty, truncated, corrupted,
            not a tables file, wrong shapes or values), naming it.
    """
    p = _path_arg("path", path)
    try:
        # Our own handle, closed here whatever numpy does with a damaged archive.
        with open(p, "rb") as fh:
            # numpy's own message for a file of neither kind talks about pickles, and its
            # advice (allow_pickle=True) is the wrong one for a file from elsewhere
            head = fh.read(len(_NPY_MAGIC))
            if not head:
                raise _bad(p, "empty file")
            if head == _NPY_MAGIC:
                raise _bad(p, "not a tables file (a single .npy array, not an .npz archive)")
            if not head.startswith(_ZIP_MAGIC):
                raise _bad(p, "not a tables file (not an .npz archive)")
            fh.seek(0)
            with zipfile.ZipFile(fh) as z:
                rows = {}
                for name, size in ROWS:
                    arr = _member(p, z, name, _row_check(name, size))
                    if arr is None:
                        raise _bad(p, f"not a tables file (no {name} array)")
                    rows[name] = _distribution(p, name, size, arr)
                raw = _member(p, z, "meta", _meta_check)
                if raw is None:
                    raise _bad(p, "not a tables file (no meta)")
                meta = _meta(p, raw)
    except InvalidTablesError:
        raise
    except _READ_ERRORS as e:
        reason = str(e) or type(e).__name__
        if len(reason) > 200:
            reason = reason[:200] + "…"
        kind = type(e).__name__
        if type(e).__module__ != "builtins":
            kind = f"{type(e).__module__}.{kind}"  # zlib.error, not "error"
        raise _bad(p, f"cannot be read ({kind}: {reason})") from None
    return dict(rows, meta=meta)


# -- writing ---------------------------------------------------------------------------------


def _new_temp(path: Path) -> tuple[int, str]:
    """A new file next to ``path``, open for writing. Created with mode 0o666, which the kernel
    narrows by the umask (0644 under the usual 022) as it does for any new file: a tables file
    must be readable by the account serving it, which `tempfile.mkstemp()`'s 0600 is not."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        tmp = str(path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp")
        with contextlib.suppress(FileExistsError):
            return os.open(tmp, flags, 0o666), tmp


@contextlib.contextmanager
def _atomic(path: Path) -> Iterator[IO[bytes]]:
    """A file object whose contents replace ``path`` only once it is complete."""
    fd, tmp = _new_temp(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def tables_file_path(out: str | os.PathLike[str]) -> Path:
    """Where [`write_tables()`][chinese_poker.strategy_tables.write_tables] puts ``out``: the path
    itself, with ``.npz`` added if it has another suffix or none (as `numpy.savez()` does)."""
    p = _path_arg("out", out)
    if p.name in ("", ".", ".."):
        raise InvalidArgumentError(f'argument "out": expected a file name, got {str(out)!r}')
    return p if p.suffix == ".npz" else p.with_name(p.name + ".npz")


def check_writable(out: str | os.PathLike[str]) -> Path:
    """The path a tables file would be written to, after checking it can be: its directory
    exists and takes a new file. Raises ``InvalidArgumentError`` naming ``out`` otherwise, so a
    long training run does not fail at its very end."""
    p = tables_file_path(out)
    if p.is_dir():
        raise InvalidArgumentError(f'argument "out": {str(p)!r} is a directory')
    try:
        with tempfile.TemporaryFile(dir=p.parent):
            pass
    except OSError as e:
        raise InvalidArgumentError(
            f'argument "out": cannot write to directory {str(p.parent)!r} ({e.strerror or e})'
        ) from None
    return p


def write_tables(
    path: str | os.PathLike[str], trained: dict[str, Any], meta: dict[str, Any]
) -> Path:
    """Writes trained tables to a compressed ``.npz`` file, atomically.

    Args:
        path: The file (``.npz`` added if missing).
        trained: The tables, as [`train_tables()`][chinese_poker.strategy_tables.train_tables]
            returns them.
        meta: What to record with them (the rules key, training figures, ...).

    Returns:
        The path written.

    Raises:
        OutputError: Writing failed.
    """
    p = tables_file_path(path)
    full = dict(meta, scoop_rate=float(trained["scoop_rate"]), key=trained["key"])
    if trained.get("model") is not None:  # tables without one use the plain formula
        full["model"] = json.loads(trained["model"])
    with _atomic(p) as fh:
        np.savez_compressed(
            fh,
            front=np.asarray(trained["front"], dtype=np.float32),
            middle=np.asarray(trained["middle"], dtype=np.float32),
            back=np.asarray(trained["back"], dtype=np.float32),
            meta=np.array(json.dumps(full, sort_keys=True)),
        )
    return p


def _write_index(out: Path, index: dict[str, Any]) -> None:
    with _atomic(out / INDEX_FILE) as fh:
        fh.write((json.dumps(index, indent=1) + "\n").encode())


# -- the shipped tables and the cache --------------------------------------------------------


def _data_dir() -> Path:
    return Path(str(resources.files("chinese_poker"))) / TABLES_DIR


def _index_entries(path: Path) -> list[dict[str, Any]]:
    """The entries of a tables index (``{"tables": [{"key": ..., "file": ...}, ...]}``); none
    where there is no index. Raises ``InvalidTablesError`` naming the index if it is damaged."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        reason = e.strerror if isinstance(e, OSError) else str(e)[:200]
        raise InvalidTablesError(f"tables index {str(path)!r}: cannot be read ({reason})") from None
    entries = data.get("tables") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise InvalidTablesError(
            f'tables index {str(path)!r}: not a tables index (no "tables" list)'
        )
    for i, entry in enumerate(entries):
        good = isinstance(entry, dict) and isinstance(entry.get("key"), str)
        file = entry.get("file") if good else None
        # a file name, never a path: an index names files of its own directory only
        if not isinstance(file, str) or Path(file).name != file:
            raise InvalidTablesError(
                f'tables index {str(path)!r}: entry {i} has no "key" and "file" text'
            )
    return entries


def _canonical(key: str) -> str:
    # keys written before the naturals had a ranking of their own list them in data order
    return _core.canonical_tables_key(key)


@functools.cache
def _shipped_entries() -> dict[str, dict[str, Any]]:
    return {_canonical(e["key"]): e for e in _index_entries(_data_dir() / INDEX_FILE)}


@functools.cache
def _index() -> dict[str, str]:
    return {key: e["file"] for key, e in _shipped_entries().items()}


def _shipped_for(key: str) -> list[str]:
    """The presets and table sizes whose shipped tables have ``key``, as ``maceplay@4``."""
    entry = _shipped_entries().get(_canonical(key))
    if entry is None:
        return []
    presets = entry.get("presets") or []
    return [f"{p[0]}@{p[1]}" for p in presets if isinstance(p, list) and len(p) == 2]


def shipped_tables_path(rules: RuleSet | str | None, players: int) -> Path | None:
    """The shipped tables file for a rule set and table size.

    Args:
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name or ``None`` for ``maceplay``.
        players: The table size, 2 to 4.

    Returns:
        The file, or ``None`` if none matches.
    """
    rs = _rule_set(rules)
    key = _core.tables_key(rs.compiled, _check_players(players))
    name = _index().get(key)
    return None if name is None else _data_dir() / name


# -- the user tables directory ----------------------------------------------------------------


def user_tables_dir() -> Path:
    """The user tables directory: the one ``$CHINESE_POKER_TABLES`` names, else ``tables`` in
    the platform's user data directory (``~/.local/share/chinese-poker/tables`` on Linux). It
    holds installed tables files and their index (``tables.json``, shaped as the shipped one);
    it is created by the first install."""
    named = os.environ.get(TABLES_ENV)
    if named:
        return Path(named).expanduser()
    return Path(platformdirs.user_data_dir(_APP, appauthor=False)) / "tables"


@functools.lru_cache(maxsize=8)
def _user_index(path: str, stamp: tuple[int, int, int]) -> dict[str, str]:
    # ``stamp`` only keys the cache: an index rewritten by an install is read again
    return {_canonical(e["key"]): e["file"] for e in _index_entries(Path(path))}


def _index_stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise InvalidTablesError(
            f"tables index {str(path)!r}: cannot be read ({e.strerror or e})"
        ) from None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def installed_tables_path(rules: RuleSet | str | None, players: int) -> Path | None:
    """The tables file installed in the user tables directory for a rule set and table size.

    Args:
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name or ``None`` for ``maceplay``.
        players: The table size, 2 to 4.

    Returns:
        The file, or ``None`` if none is installed.

    Raises:
        InvalidTablesError: A damaged index, naming it.
    """
    rs = _rule_set(rules)
    n = _check_players(players)
    directory = user_tables_dir()
    index = directory / INDEX_FILE
    stamp = _index_stamp(index)
    if stamp is None:  # nothing installed: the usual case, one stat
        return None
    name = _user_index(str(index), stamp).get(_core.tables_key(rs.compiled, n))
    return None if name is None else directory / name


def installed_tables() -> list[dict[str, Any]]:
    """The entries of the user tables directory's index, oldest install first: each with the
    ``key``, the ``file`` (in [`user_tables_dir()`][chinese_poker.strategy_tables.user_tables_dir]),
    the rule set's name (``rules``), ``players``, ``iterations``, ``converged`` and ``seconds`` of
    its training, and ``shadows``: the shipped presets and table sizes these tables replace
    (``["maceplay@4"]``: every ``maceplay`` solve at 4 players plays them), empty where they replace
    none."""
    entries = _index_entries(user_tables_dir() / INDEX_FILE)
    return [dict(e, shadows=_shipped_for(e["key"])) for e in entries]


@contextlib.contextmanager
def _locked(directory: Path) -> Iterator[None]:
    """Holds the directory's install lock (where the platform has ``fcntl``): two installs at
    once each add their entry to the index, neither losing the other's."""
    try:
        import fcntl
    except ImportError:  # Windows: installs are not serialised
        yield
        return
    fd = os.open(directory / ".lock", os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


def _user_dir() -> Path:
    """The user tables directory, created if missing; ``OutputError`` naming it (and the
    variable that names it) if it cannot be, or cannot take a new file."""
    directory = user_tables_dir()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as e:
        raise OutputError(
            f"user tables directory {str(directory)!r} cannot be written ({e.strerror or e}); "
            f"set {TABLES_ENV} to a directory that can"
        ) from None
    return directory


def install_tables(path: str | os.PathLike[str], *, replace_shipped: bool = False) -> Path:
    """Installs a tables file in the user tables directory, where every solve, simulation, duel and
    command finds it for the rule set and table size it was trained for (its ``meta`` key). The
    file is copied under a name derived from its key (replacing tables installed for the same
    key), and the directory's index updated; both are written atomically.

    Args:
        path: A tables file trained by
            [`train_tables()`][chinese_poker.strategy_tables.train_tables] or ``chinese-poker
            tables train``.
        replace_shipped: Install tables whose key is a shipped preset's (a rule set copied
            from a preset and not yet edited has the preset's key), which then replace the
            shipped tables for every solve of that preset (``--replace-shipped`` on the
            command line).

    Returns:
        The installed file's path.

    Raises:
        InvalidTablesError: A file that cannot be used, naming it (checked first).
        InvalidArgumentError: Tables for a shipped preset's key without ``replace_shipped``.
        OutputError: The directory or its index cannot be written.
    """
    src = _path_arg("path", path)
    replace_shipped = flag("replace_shipped", replace_shipped)
    meta = read_tables(src)["meta"]
    _check_shadow(f"tables file {str(src)!r}", meta["key"], replace_shipped)
    directory = _user_dir()
    dest = directory / _file_name(meta["key"])
    with _locked(directory):
        if not (dest.exists() and os.path.samefile(src, dest)):
            try:
                data = src.read_bytes()
            except OSError as e:
                raise _bad(src, f"cannot be read ({e.strerror or e})") from None
            with _atomic(dest) as fh:
                fh.write(data)
        key = _canonical(meta["key"])
        entries = [e for e in _index_entries(directory / INDEX_FILE) if _canonical(e["key"]) != key]
        entries.append(_index_entry(meta, dest.name))
        _write_index(directory, {"version": 1, "tables": entries})
    clear_cache()  # solvers cached on the tables used before
    return dest


def _check_shadow(what: str, key: str, replace_shipped: bool) -> None:
    """Refuses to install tables whose key is a shipped preset's unless ``replace_shipped``."""
    shadowed = _shipped_for(key)
    if shadowed and not replace_shipped:
        e = InvalidArgumentError(
            f"{what} has the key of the shipped tables of {', '.join(shadowed)}: installed, "
            "they would replace those for every solve of that rule set. Change the rule set "
            "first (its name alone does not change the key), or pass replace_shipped=True "
            "(--replace-shipped) to replace them on purpose"
        )
        e.argument = "replace_shipped"
        raise e


def _index_entry(meta: dict[str, Any], file: str) -> dict[str, Any]:
    return {
        "key": meta["key"],
        "file": file,
        "rules": meta.get("rules"),
        "players": meta.get("players"),
        "iterations": meta.get("iterations"),
        "converged": meta.get("converged"),
        "seconds": meta.get("seconds"),
    }


# -- loading -----------------------------------------------------------------------------------


def _key_mismatch(path: Path, found: str, wanted: str, rules: RuleSet, players: int) -> str:
    """Says which fields of two tables keys differ, then both keys whole."""
    ours = dict(part.partition("=")[::2] for part in wanted.split(";"))
    theirs = dict(part.partition("=")[::2] for part in found.split(";"))
    differ = [f for f in ours if theirs.get(f) != ours[f]] + [f for f in theirs if f not in ours]
    return (
        f"tables file {str(path)!r} was trained for another rule set or table size than "
        f"{rules.name!r} at {players} players (they differ in {', '.join(differ)}): the file's "
        f"key is {found!r}, the rule set's {wanted!r}"
    )


def _compile(rules: RuleSet, players: int, path: Path, source: str) -> _core.TableEv:
    t = read_tables(path)
    wheel = t["meta"].get("wheel", rules.wheel)
    if wheel != rules.wheel:
        raise InvalidTablesError(
            f"tables file {str(path)!r} was trained for the {wheel!r} wheel; the rule set uses "
            f"{rules.wheel!r}"
        )
    wanted = _core.tables_key(rules.compiled, players)
    if source != FALLBACK and _canonical(t["meta"]["key"]) != wanted:
        raise InvalidTablesError(_key_mismatch(path, t["meta"]["key"], wanted, rules, players))
    try:
        model = t["meta"].get("model")
        return _core.TableEv(
            rules.compiled,
            players,
            t["front"],
            t["middle"],
            t["back"],
            t["meta"]["scoop_rate"],
            None if model is None else json.dumps(model),
            source,
        )
    except ValueError as e:  # the core's own checks of the distributions and the model
        raise InvalidTablesError(f"tables file {str(path)!r}: {e}") from None


FILE, INSTALLED, SHIPPED, FALLBACK = _core.TABLES_SOURCES
"""Where the tables a rule set plays with come from (``TablesId.source``), in the order
`which_tables()` looks: a file named, installed, shipped, and the plain tables of the
wheel standing in for a rule set none were trained for."""


def which_tables(
    rules: RuleSet | str | None = None,
    players: int = 4,
    path: str | os.PathLike[str] | None = None,
) -> tuple[str, Path]:
    """Which tables serve a rule set and table size, and from where. The one place this is
    decided: [`load_tables()`][chinese_poker.strategy_tables.load_tables], every solver,
    simulation, duel, table, command and the service take their tables from it.

    Args:
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name or ``None`` for ``maceplay``.
        players: The table size, 2 to 4.
        path: A tables file to use (``"file"``).

    Returns:
        ``(source, file)``, the first of: ``path`` (``"file"``); the tables installed for them
        in the user tables directory (``"installed"``,
        [`installed_tables_path()`][chinese_poker.strategy_tables.installed_tables_path]); the
        shipped tables (``"shipped"``); the plain tables of the rule set's wheel
        (``"fallback"``), with a ``UserWarning`` saying none were trained.

    Raises:
        InvalidTablesError: A damaged index of the user tables directory.
    """
    rs = _rule_set(rules)
    n = _check_players(players)
    if path is not None:
        return FILE, _path_arg("tables", path)
    installed = installed_tables_path(rs, n)
    if installed is not None:
        return INSTALLED, installed
    shipped = shipped_tables_path(rs, n)
    if shipped is not None:
        return SHIPPED, shipped
    return FALLBACK, _fallback(rs, n)


@functools.lru_cache(maxsize=64)
def _load_packaged(rules: RuleSet, players: int, path: str, source: str) -> _core.TableEv:
    # Package data does not change while the process runs: cached by rule set and file.
    return _compile(rules, players, Path(path), source)


@functools.lru_cache(maxsize=64)
def _load_file(
    rules: RuleSet, players: int, path: str, stamp: tuple[int, int, int], source: str
) -> _core.TableEv:
    # ``stamp`` (mtime_ns, size, inode) is only part of the cache key: a file rewritten at the
    # same path, in place or by os.replace, is a new entry and is read again.
    return _compile(rules, players, Path(path), source)


def _stamp(path: Path) -> tuple[int, int, int]:
    try:
        st = path.stat()
    except OSError as e:
        raise _bad(path, f"cannot be read ({e.strerror or e})") from None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _fallback(rules: RuleSet, players: int) -> Path:
    # The plain tables for the same wheel: the tables mostly encode how strong rows are when
    # set well, which the wheel decides; bonuses shift them a little.
    found = shipped_tables_path(RuleSet(wheel=rules.wheel), players)
    if found is None:
        raise InvalidTablesError(
            f"no outcome tables are shipped for the {rules.wheel!r} wheel; build them with "
            "`chinese-poker tables train`"
        )
    warnings.warn(
        f"no tables were trained for rule set {rules.name!r} at {players} players; using the "
        f"plain tables for the {rules.wheel!r} wheel (train your own with `chinese-poker "
        f"tables train`)",
        FallbackTablesWarning,
        stacklevel=_caller_level(),
    )
    return found


class FallbackTablesWarning(UserWarning):
    """No tables were trained for a rule set and table size: the plain tables of its wheel
    play instead (``TablesId.source == "fallback"`` on the results)."""


def _caller_level() -> int:
    # the first frame outside the package: the warning names the user's line
    import sys

    frame, level = sys._getframe(1), 1
    package = __name__.rpartition(".")[0]
    while frame is not None and frame.f_globals.get("__name__", "").startswith(package):
        frame, level = frame.f_back, level + 1  # type: ignore[assignment]
    return level


def load_tables(
    rules: RuleSet | str | None = None,
    players: int = 4,
    path: str | os.PathLike[str] | None = None,
) -> _core.TableEv:
    """The compiled table objective for a rule set and table size (cached), from the tables
    `which_tables()` picks (a file named, installed, shipped, or the plain tables with a
    warning); its ``source`` and ``digest`` name them on every result.

    Args:
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name or ``None`` for ``maceplay``.
        players: The table size, 2 to 4.
        path: A tables file to use instead of looking them up.

    Returns:
        The core's table objective (opaque; what the solver reads).

    Raises:
        InvalidTablesError: A file that cannot be used, or one trained for another rule set or
            table size (naming both keys).
    """
    rs = _rule_set(rules)
    n = _check_players(players)
    source, p = which_tables(rs, n, path)
    if source in (SHIPPED, FALLBACK):
        return _load_packaged(rs, n, str(p), source)
    return _load_file(rs, n, str(p), _stamp(p), source)


_DEPENDENT_CACHES: list[Callable[[], object]] = []


def on_clear_cache(clear: Callable[[], object]) -> None:
    """Registers ``clear`` to run on `clear_cache()`: a module above this one that caches
    what it built on loaded tables (the solver's cache of solvers) registers its own clearing,
    so this module needs to know nothing of it."""
    _DEPENDENT_CACHES.append(clear)


def clear_cache() -> None:
    """Forgets every loaded table and the shipped index (and the solvers built on them)."""
    _shipped_entries.cache_clear()
    _index.cache_clear()
    _user_index.cache_clear()
    _load_packaged.cache_clear()
    _load_file.cache_clear()
    for clear in _DEPENDENT_CACHES:
        clear()


# -- training --------------------------------------------------------------------------------

#: ``progress(phase, step, report)`` of
# [`train_tables()`][chinese_poker.strategy_tables.train_tables].
TrainingProgress: TypeAlias = Callable[[str, int, dict[str, Any]], object]


def train_tables(
    rules: RuleSet | str | None,
    players: int,
    seed: int = 0,
    deals: int = DEFAULT_DEALS,
    out: str | os.PathLike[str] | None = None,
    threads: int | None = None,
    progress: TrainingProgress | None = None,
    calibration_hands: int | None = None,
    calibration_iters: int | None = None,
    install: bool = False,
    replace_shipped: bool = False,
    start: str | os.PathLike[str] | None = None,
    improve_hands: int = 0,
    improve_samples: int = IMPROVE_SAMPLES,
) -> dict[str, Any]:
    """Trains the table objective's outcome tables and model by self-play: fictitious play,
    blended until no row's distribution moves by more than ``TOLERANCE`` (at most
    ``MAX_ITERATIONS`` iterations), or the tables of ``start``; then, with ``improve_hands``,
    the improvement phase; then calibration steps. Deterministic for ``seed`` whatever
    ``threads``. Ctrl-C stops training within about a second (``KeyboardInterrupt``), in any
    phase; nothing is written then.

    The improvement phase values the tables' ``IMPROVE_CANDIDATES`` best plays of
    ``improve_hands`` dealt hands by Monte Carlo against opponents who play the tables, reweights
    the opponents' row distributions (one factor per category and leading card of each row) so
    that the tables choose the plays Monte Carlo values best on two hands of every three, and
    keeps the reweighting only when it gains on the third, held out (see the
    [architecture](https://chinese-poker.github.io/chinese-poker/architecture/#tables-that-learn-from-monte-carlo)).
    ``meta["improvement"]`` records what it measured: hands valued and skipped, the gain on the
    fitting hands and on the held-out ones with its 95% interval (points a hand), the share of
    held-out plays changed, and whether the reweighting was kept.

    ``meta["calibration"]`` lists each calibration step: the hands played, the mean prediction
    (the realised mean is 0), the worst decile gap of the map the step started from, and how far
    the new map moved (points).

    Args:
        rules: A [`RuleSet`][chinese_poker.RuleSet], a preset name or ``None`` for ``maceplay``.
        players: The table size, 2 to 4.
        seed: The deals' seed, 0 to 2**64 − 1.
        deals: Deals per iteration, 1 to ``MAX_DEALS``; more give steadier measurements.
        out: A file to write the tables to (its directory checked before training; written
            atomically; ``meta["path"]`` is where it went).
        threads: ``None`` (all cores) or 1 to ``MAX_THREADS``; results never depend on it.
        progress: Called as ``progress(phase, step, report)`` after each iteration of the
            ``"fictitious_play"`` phase (``report``: ``delta``, the largest move, and
            ``converged``, true on the iteration that ended the phase), once after the
            ``"improvement"`` phase (``report``: what ``meta["improvement"]`` records) and after
            each step of the ``"calibration"`` phase (``report``: the step's figures, and
            ``steps``); ``step`` counts from 1 in each phase.
            [`progress_text()`][chinese_poker.strategy_tables.progress_text] words a call as
            the command line's log does.
        calibration_hands: Hands per calibration step (``None``: 150 × ``deals``).
        calibration_iters: Calibration steps (``None``: 2; 0 skips calibration).
        install: Also install the tables
            ([`install_tables()`][chinese_poker.strategy_tables.install_tables]; without
            ``out``, written straight into the user tables directory, checked before training
            too); ``meta["installed"]`` is the installed file.
        replace_shipped: Install tables for a shipped preset's key
            ([`install_tables()`][chinese_poker.strategy_tables.install_tables]); checked
            before training.
        start: A tables file for this rule set and table size to start from instead of
            fictitious play (``meta["start"]`` records its digest): to improve shipped or
            installed tables, name them (``which_tables()``).
        improve_hands: Hands the improvement phase values, 0 (no such phase) to
            ``MAX_IMPROVE_HANDS``; ``IMPROVE_HANDS`` is the size the shipped tables were
            improved with.
        improve_samples: Monte Carlo samples per hand of the improvement phase, 2 to
            ``MAX_SAMPLES``.

    Returns:
        The distributions and ``meta``, whose ``converged`` is ``False`` (with a
        ``RuntimeWarning``) when training stopped at its iteration limit still moving.

    Raises:
        InvalidArgumentError: A value out of range, naming it.
        InvalidTypeError: A ``progress`` that is not callable.
        OutputError: ``out`` or the user tables directory cannot be written.
    """
    rs = _rule_set(rules)
    n = _check_players(players)
    seed = _seed("seed", seed)
    deals = whole("deals", deals, 1, MAX_DEALS)
    install = flag("install", install)
    replace_shipped = flag("replace_shipped", replace_shipped)
    if install:
        what = f"tables for rule set {rs.name!r} at {n} players"
        _check_shadow(what, _core.tables_key(rs.compiled, n), replace_shipped)
    if progress is not None and not callable(progress):
        raise InvalidTypeError(
            f"progress: expected a callable or None, got {type(progress).__name__}"
        )
    improve_hands = whole("improve_hands", improve_hands, 0, MAX_IMPROVE_HANDS)
    improve_samples = whole(
        "improve_samples", improve_samples, _core.MIN_SAMPLES, _core.MAX_SAMPLES
    )
    begun = None if start is None else load_tables(rs, n, _path_arg("start", start))
    target = None if out is None else check_writable(out)
    if install and target is None:
        target = _user_dir() / _file_name(_core.tables_key(rs.compiled, n))
    clock = time.perf_counter()
    trained = _core.train_tables(
        rs.compiled,
        n,
        seed,
        deals,
        min_iters=MIN_ITERATIONS,
        max_iters=MAX_ITERATIONS,
        tol=TOLERANCE,
        threads=threads,
        progress=progress,
        calibration_hands=calibration_hands,
        calibration_iters=calibration_iters,
        start=begun,
        improve_hands=improve_hands,
        improve_samples=improve_samples,
    )
    seconds = time.perf_counter() - clock
    deltas = [float(d) for d in trained["deltas"]]
    # started from given tables: no fictitious play to converge
    converged = begun is not None or (
        bool(deltas) and deltas[-1] < TOLERANCE and len(deltas) >= MIN_ITERATIONS
    )
    meta: dict[str, Any] = {
        "rules": rs.name,
        "players": n,
        "seed": seed,
        "deals": deals,
        "iterations": trained["iterations"],
        "deltas": [round(d, 5) for d in deltas],
        "converged": converged,
        "calibration": [_rounded(step) for step in trained["calibration"]],
        "seconds": round(seconds, 1),
        "wheel": trained["wheel"],
    }
    if begun is not None:
        meta["start"] = {"digest": begun.digest}
    if trained["improvement"] is not None:
        meta["improvement"] = _rounded(trained["improvement"])
    if not converged:
        warnings.warn(
            f"training {rs.name!r} at {n} players stopped at its limit of {MAX_ITERATIONS} "
            f"iterations without converging (last move {deltas[-1]:.4f}, wanted < {TOLERANCE}); "
            "more deals per iteration give steadier measurements",
            RuntimeWarning,
            stacklevel=2,
        )
    if target is not None:
        write_tables(target, trained, meta)
        meta["path"] = str(target)
    if install and target is not None:
        meta["installed"] = str(install_tables(target, replace_shipped=replace_shipped))
    return dict(trained, meta=meta)


def _rounded(figures: dict[str, Any]) -> dict[str, Any]:
    return {k: (round(v, 5) if isinstance(v, float) else v) for k, v in figures.items()}


def progress_text(phase: str, step: int, report: dict[str, Any]) -> str:
    """A [`train_tables()`][chinese_poker.strategy_tables.train_tables] progress call in words, as
    ``chinese-poker tables train`` logs it: the phase, the step and the phase's own figure (a
    calibration map moving by points after the distributions converged is no divergence); after
    the iteration that ends the first phase, a second line says so; the improvement phase's one
    line gives its gains and whether it was kept.

    Args:
        phase: ``"fictitious_play"``, ``"improvement"`` or ``"calibration"``.
        step: The step, from 1.
        report: The call's figures.

    Returns:
        The log line(s).
    """
    name = phase.replace("_", " ")
    if phase == IMPROVEMENT:
        verdict = "kept" if report["kept"] else "not kept: the tables are unchanged"
        return (
            f"{name}: {report['hands']:,} hands valued ({report['samples']:,} samples each); "
            f"gain {report['fitted_gain']:+.4f} points a hand where fitted, "
            f"{report['held_out_gain']:+.4f} ± {report['held_out_interval']:.4f} on "
            f"{report['held_out_hands']:,} held out, {report['changed']:.1%} of plays changed; "
            f"{verdict}"
        )
    if phase == CALIBRATION:
        return (
            f"{name} step {step} of {report['steps']}: map moved {report['moved']:.4f} points, "
            f"worst decile gap {report['worst_decile_gap']:.2f}"
        )
    line = (
        f"{name}, iteration {step}: largest move {report['delta']:.4f} (stops below {TOLERANCE:g})"
    )
    if report["converged"]:
        return f"{line}\nconverged after {step} iterations"
    if step >= MAX_ITERATIONS:
        return f"{line}\nstopped at the limit of {MAX_ITERATIONS} iterations without converging"
    return line


def _finished(path: Path, key: str, seed: int, deals: int) -> dict[str, Any] | None:
    """The meta of the tables file at ``path`` when it holds ``key`` trained with ``seed`` and
    ``deals`` (what ``train_all(resume=True)`` keeps), else ``None``."""
    if not path.is_file():
        return None
    try:
        meta = read_tables(path)["meta"]
    except ChinesePokerError:
        return None  # damaged: trained again
    same = meta.get("key") == key and meta.get("seed") == seed and meta.get("deals") == deals
    return meta if same else None


def _file_name(key: str) -> str:
    # Named after the key, so a file's name always says which tables it holds: a run interrupted
    # after rewriting some files leaves the old index pointing at files of the same keys.
    return f"tables_{hashlib.sha256(key.encode()).hexdigest()[:16]}.npz"


def train_all(
    out_dir: str | os.PathLike[str],
    seed: int = 0,
    deals: int = DEFAULT_DEALS,
    threads: int | None = None,
    log: Callable[[str], object] = print,
    resume: bool = False,
) -> list[dict[str, Any]]:
    """Trains tables for every preset and table size 2–4 into a directory with an index
    (``tables.json``); rule sets whose tables would be identical (same key) share a file.

    Each file and then the index are written atomically (a temporary file, flushed, renamed),
    and a file's name is derived from its key, so an interrupted run (Ctrl-C stops training
    within a second) leaves a consistent directory: the previous index (or none) with complete
    files. Afterwards, ``tables_*.npz`` files the new index does not list are removed.

    Args:
        out_dir: The directory.
        seed: The deals' seed.
        deals: Deals per iteration.
        threads: ``None`` (all cores) or 1 to ``MAX_THREADS``.
        log: Called with each line of progress.
        resume: Keep every file already there that holds the same key, seed and deals, and
            train only the others, so a run stopped after some files continues where it stopped.

    Returns:
        The index's entries.
    """
    out = _path_arg("out_dir", out_dir)
    seed = _seed("seed", seed)
    deals = whole("deals", deals, 1, MAX_DEALS)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InvalidArgumentError(
            f'argument "out_dir": cannot create {str(out)!r} ({e.strerror or e})'
        ) from None
    check_writable(out / INDEX_FILE)
    entries: dict[str, dict[str, Any]] = {}
    start = time.perf_counter()
    # the presets, and the plain default rules for either wheel (the fallback of custom rules)
    rule_sets = [(name, RuleSet.preset(name)) for name in RuleSet.presets()]
    rule_sets += [("default", RuleSet()), ("default_second", RuleSet(wheel="second"))]
    for name, rs in rule_sets:
        for players in (2, 3, 4):
            key = _core.tables_key(rs.compiled, players)
            if key in entries:
                entries[key]["presets"].append([name, players])
                log(f"{name} x{players}: shares {entries[key]['file']}")
                continue
            file = _file_name(key)
            done = _finished(out / file, key, seed, deals) if resume else None
            if done is not None:
                entries[key] = {
                    "key": key,
                    "file": file,
                    "presets": [[name, players]],
                    "iterations": done["iterations"],
                    "converged": done["converged"],
                    "seconds": done["seconds"],
                }
                log(f"{name} x{players}: {file} already trained, kept")
                continue
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", RuntimeWarning)
                res = train_tables(rs, players, seed, deals, out / file, threads)
            meta = res["meta"]
            entries[key] = {
                "key": key,
                "file": file,
                "presets": [[name, players]],
                "iterations": meta["iterations"],
                "converged": meta["converged"],
                "seconds": meta["seconds"],
            }
            note = "" if meta["converged"] else " (did not converge)"
            log(
                f"{name} x{players}: {file}, {meta['iterations']} iterations{note}, "
                f"{meta['seconds']} s"
            )
            for w in caught:
                if not issubclass(w.category, RuntimeWarning):
                    warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    index = {
        "version": 1,
        "seed": seed,
        "deals": deals,
        "seconds": round(time.perf_counter() - start, 1),
        "tables": list(entries.values()),
    }
    _write_index(out, index)
    listed = {e["file"] for e in entries.values()}
    for stale in out.glob("tables_*.npz"):
        if stale.name not in listed:
            with contextlib.suppress(OSError):
                stale.unlink()
    clear_cache()
    return list(entries.values())
