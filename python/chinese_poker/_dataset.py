"""Crash-safe simulation output: a directory of finished Parquet parts and a manifest.

``simulate(out=DIR)`` writes the rows of a run as parts ``part-<first round>.parquet``, each
written under a hidden temporary name (``.part-...tmp``, which Parquet readers skip), flushed to
disk and renamed when complete, so a file named ``part-*`` is always a whole part. The manifest
``_manifest.json`` (also skipped by readers) says which run the directory holds (its rule set,
players, policies, seed, rounds, the format version and the package version that wrote it)
and which parts, with their round ranges and per-seat sums, are done; it is replaced
atomically (temporary file, fsync, rename) after each part. So Ctrl-C, a kill or a full disk
loses at most the part being written, and ``resume=True`` plays only the rounds not done: a
round depends only on the seed and its index, so the resumed rows are exactly those of an
uninterrupted run.

Every Parquet file written here (a part, or ``Simulation.to_parquet``'s one file) describes
itself in its key-value metadata under the one key ``chinese_poker``: JSON of the run (format
and schema version, the full rule set, players, policy per seat, seed, rounds, the package
version that wrote it), its round range (``first``, ``count``) and the run's digest (``run``).
The code columns (``choice``, ``status``, ``natural``) are written as Arrow dictionary columns
labelled with the core's names; `numpy_columns()` reads them back as codes.

A part renamed but not yet in the manifest (a kill between the two, or a Ray task cancelled
after writing some of its parts) carries its run and range in its own Parquet metadata: the
next open adopts it when it belongs to the same run and overlaps nothing done, and deletes it
otherwise, with any temporary file left behind.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import socket
import stat
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import _core
from .exceptions import ChinesePokerError, InvalidArgumentError, InvalidTypeError, OutputError

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "COLUMNS",
    "FORMAT",
    "LABELS",
    "MANIFEST",
    "METADATA_KEY",
    "READ_VERSIONS",
    "RUN_KEYS",
    "SCHEMA_VERSION",
]

FORMAT = "chinese-poker-simulation"
"""The ``format`` of a simulation's manifest and of its parts' Parquet metadata."""
SCHEMA_VERSION = 3
"""The version of the rows' columns and of the run description (manifest and Parquet
metadata). 3: the column of the natural declared is ``declared`` (``natural`` is a reserved
word in SQL) and a directory's manifest is ``_manifest.parquet``; 2: ``natural`` and
``_manifest.json``; 1: bare codes, not read any more. A package reads the versions of
`READ_VERSIONS`, and resumes a directory in the version it was written in."""
READ_VERSIONS = (2, 3)
"""The schema versions this package reads (and resumes)."""
MANIFEST = "_manifest.parquet"
"""The manifest's file name inside a simulation directory: a Parquet file of no rows with the
parts' columns, its key-value metadata the manifest's JSON (under `MANIFEST_KEY`), so
that a reader of every ``*.parquet`` file of the directory (polars, DuckDB) reads the rows
alone, and one that skips ``_`` files (pyarrow, Spark) never sees it."""
LEGACY_MANIFEST = "_manifest.json"
"""The manifest of a schema version 2 directory (still read and resumed)."""
MANIFEST_KEY = b"chinese_poker_manifest"
"""The key of the manifest's JSON in `MANIFEST`'s Parquet metadata."""
METADATA_KEY = b"chinese_poker"
"""The one key of a simulation's Parquet key-value metadata: its run description, as JSON."""
_META_KEY = METADATA_KEY
RUN_KEYS = ("rules", "players", "policies", "tables", "seed", "rounds")
"""What makes two runs the same run (with the format and schema version): their rows depend on
nothing else (``tables``: the digest and source of the strategy tables each seat played).
``resume`` refuses a directory whose run differs in any of them."""
LABELS: dict[str, tuple[str, ...]] = {
    "choice": _core.CHOICE_NAMES,
    "status": _core.STATUS_NAMES,
    "declared": _core.NATURAL_NAMES,
}
"""The code columns and their labels, the core's names indexed by the code: in Arrow and
Parquet these columns are dictionary columns of these labels (numpy keeps the codes)."""
_NULL_CODES = {"declared": _core.NO_NATURAL}
"""Codes written as null in the labelled columns (no natural declared)."""
_RENAMED = {2: {"declared": "natural"}}
"""Columns a schema version named otherwise: version -> {name now: name then}."""
COLUMNS = (
    "round",
    "seat",
    "hand",
    "choice",
    "setting",
    "status",
    "declared",
    "ranks",
    "scoops",
    "sweep",
    "points",
    "value",
)
"""The result columns, one row per round and seat (see `Simulation`)."""
_PART = re.compile(r"part-(\d{13})\.parquet")
_TEMP_PREFIX = ".part-"


def _bad(
    message: str, cls: type[ChinesePokerError] = InvalidArgumentError, name: str = "out"
) -> ChinesePokerError:
    e = cls(f'argument "{name}": {message}')
    e.argument = name
    return e


def output_path(out: object) -> Path:
    """``out`` as a path: a ``str`` or ``os.PathLike``, not empty."""
    if isinstance(out, bytes) or not isinstance(out, str | os.PathLike):
        raise _bad(
            f"expected a path (str or os.PathLike), got {type(out).__name__}", InvalidTypeError
        )
    text = os.fspath(out)
    if not isinstance(text, str) or not text.strip():
        raise _bad(f"expected a path, got {text!r}")
    return Path(text)


def part_name(first: int) -> str:
    # 2**40 rounds, the most a run has, is 13 digits: names sort as the rounds do
    return f"part-{first:013d}.parquet"


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):  # not every file system can sync a directory
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _atomic_write(path: Path, data: bytes) -> None:
    """``data`` to ``path``: a temporary file in the same directory, flushed, renamed."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def run_identity(description: Mapping[str, Any], version: int = SCHEMA_VERSION) -> dict[str, Any]:
    """What makes two runs the same run, from a run's description (a provenance's
    ``to_dict()``, a manifest, a file's metadata): the format, the schema version ``version``
    and `RUN_KEYS`, in the form JSON reads back (lists, not tuples), so that equal runs
    compare equal."""
    identity = {"format": FORMAT, "schema_version": version}
    identity.update({k: description[k] for k in RUN_KEYS if k != "tables"})
    # runs written before results named their tables record none: null for every seat
    identity["tables"] = description.get("tables") or [None] * len(description["policies"])
    loaded: dict[str, Any] = json.loads(json.dumps(identity))
    return loaded


def identity_key(identity: Mapping[str, Any]) -> str:
    """A digest of what makes two runs the same run."""
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def file_metadata(
    identity: Mapping[str, Any], package_version: str, first: int, count: int
) -> dict[bytes, bytes]:
    """The Parquet key-value metadata of a simulation's file (a part, or
    ``Simulation.to_parquet``'s one file): the run, the package version that made the rows,
    their round range and the run's digest, as JSON under `METADATA_KEY`."""
    data = {
        **identity,
        "package_version": package_version,
        "first": first,
        "count": count,
        "run": identity_key(identity),
    }
    return {METADATA_KEY: json.dumps(data).encode()}


def _labelled(codes: npt.NDArray[np.uint8], name: str) -> pa.DictionaryArray:
    """A code column as a dictionary column of its labels (a null for a code of none)."""
    import pyarrow as pa

    null = codes == _NULL_CODES[name] if name in _NULL_CODES else None
    indices = pa.array(codes.astype(np.int8), mask=null)
    return pa.DictionaryArray.from_arrays(indices, pa.array(LABELS[name], pa.string()))


def _codes(col: pa.ChunkedArray, name: str) -> npt.NDArray[np.uint8]:
    """A labelled column's codes, looked up by label (whatever order a file's dictionary has)."""
    labels, null = LABELS[name], _NULL_CODES.get(name)
    out = [np.zeros(0, np.uint8)]
    for chunk in col.chunks:
        words = chunk.dictionary.to_pylist()
        unknown = [w for w in words if w not in labels]
        if unknown or (null is None and chunk.null_count):
            got = repr(unknown[0]) if unknown else "null"
            raise InvalidArgumentError(
                f"the {name!r} column holds {got}, not one of {', '.join(labels)}"
            )
        # a null index takes the entry after the labels: the code of none
        lookup = np.array(
            [labels.index(w) for w in words] + [0 if null is None else null], np.uint8
        )
        indices = chunk.indices.fill_null(len(words)).to_numpy(zero_copy_only=False)
        out.append(lookup[indices])
    return np.concatenate(out)


def arrow_table(cols: Mapping[str, npt.NDArray[Any]], names: Sequence[str]) -> pa.Table:
    """Columns as an Arrow table: (N, k) arrays as fixed-size lists of k, the code columns of
    `LABELS` as dictionary columns of their labels."""
    import pyarrow as pa

    def fixed(a: npt.NDArray[Any], width: int) -> pa.Array:
        return pa.FixedSizeListArray.from_arrays(
            pa.array(np.ascontiguousarray(a).reshape(-1)), width
        )

    def column(name: str) -> pa.Array:
        a = cols[name]
        if a.ndim == 2:
            return fixed(a, a.shape[1])
        return _labelled(a, name) if name in LABELS else pa.array(a)

    return pa.table({name: column(name) for name in names})


def numpy_columns(table: pa.Table) -> dict[str, npt.NDArray[Any]]:
    """An Arrow table of simulation rows as numpy columns (the inverse of ``arrow_table``): the
    labelled columns back to codes, a column of an older schema version under its name now
    (version 2's ``natural`` is ``declared``). A label the core does not know is an
    ``InvalidArgumentError``."""
    import pyarrow as pa

    now = {then: name for renamed in _RENAMED.values() for name, then in renamed.items()}
    out: dict[str, npt.NDArray[Any]] = {}
    for stored in table.column_names:
        col = table.column(stored)
        name = now.get(stored, stored)
        if pa.types.is_fixed_size_list(col.type):
            width = col.type.list_size
            flat = (
                col.combine_chunks().flatten()
                if col.num_chunks
                else pa.array([], col.type.value_type)
            )
            out[name] = np.asarray(flat.to_numpy(zero_copy_only=False)).reshape(-1, width)
        elif pa.types.is_dictionary(col.type) and name in LABELS:
            out[name] = _codes(col, name)
        else:
            out[name] = np.asarray(col.to_numpy())
    return out


def _in_version(table: pa.Table, version: int) -> pa.Table:
    """``table``'s columns under the names of schema ``version``."""
    renamed = _RENAMED.get(version)
    if not renamed:
        return table
    return table.rename_columns([renamed.get(n, n) for n in table.column_names])


def write_part(
    directory: Path, table: pa.Table, first: int, count: int, identity: Mapping[str, Any]
) -> dict[str, Any]:
    """Writes one finished part of the run ``identity`` (in its schema version): its rows
    under a temporary name, flushed and renamed, described in its metadata
    (``file_metadata``). Returns its manifest entry (without the sums, which the caller
    adds): file, round range and size."""
    import pyarrow.parquet as pq

    meta = file_metadata(identity, _core.__version__, first, count)
    table = _in_version(table, int(identity["schema_version"])).replace_schema_metadata(meta)
    name = part_name(first)
    tmp = directory / f"{_TEMP_PREFIX}{first:013d}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            pq.write_table(table, f, compression="zstd", use_dictionary=False)
            f.flush()
            os.fsync(f.fileno())
            size = os.fstat(f.fileno()).st_size
        os.replace(tmp, directory / name)
    except BaseException as e:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(e, KeyboardInterrupt | SystemExit | ChinesePokerError):
            raise
        if isinstance(e, Exception):
            raise OutputError(
                f"writing rounds {first:,} to {first + count - 1:,} to {directory} failed: {e}"
            ) from e
        raise
    _fsync_dir(directory)
    return {"file": name, "first": first, "count": count, "size": size}


def tally_state(tally: _core.SeatTally) -> list[Any]:
    """A tally's exact sums as JSON (ints of any size)."""
    _, _, (rounds, seats) = tally.__reduce__()
    return [rounds, [list(s) for s in seats]]


def tally_of(players: int, state: Sequence[Any]) -> _core.SeatTally:
    t = _core.SeatTally(players)
    rounds, seats = state
    t.__setstate__((int(rounds), [tuple(int(x) for x in s) for s in seats]))
    return t


def _describe(identity: Mapping[str, Any]) -> str:
    rules = identity.get("rules")
    name = rules.get("name") if isinstance(rules, Mapping) else None
    return (
        f"{identity.get('rounds')} rounds of {identity.get('players')} players, seed "
        f"{identity.get('seed')}, rule set {name!r}"
    )


# -- one writer a directory --------------------------------------------------------------------


def _holder() -> dict[str, Any]:
    """Who writes a directory, as its manifest records it (``writer``)."""
    return {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "since": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


class _Lock:
    """An exclusive, advisory lock on a simulation directory, held by its one writer for the
    whole run: ``flock`` on the directory itself (so no lock file sits among the parts), and
    released when the writer closes it or its process ends, however it ends (a kill leaves no
    stale lock). Where the platform has no ``fcntl`` (Windows) or the file system refuses
    locks, there is no lock (documented): one writer is then the user's to keep."""

    def __init__(self, fd: int | None) -> None:
        self.fd = fd

    @classmethod
    def take(cls, path: Path) -> _Lock:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not POSIX
            return cls(None)
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            return cls(None)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise _busy(path) from None
        except OSError:  # a file system without locks
            os.close(fd)
            return cls(None)
        return cls(fd)

    def release(self) -> None:
        fd, self.fd = self.fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)  # closing the descriptor releases its flock


def _busy(path: Path) -> ChinesePokerError:
    """The error of a second writer, naming the first as the manifest records it."""
    holder = "another process"
    with contextlib.suppress(Exception):
        found = _read_manifest(path)
        writer = None if found is None else found[0].get("writer")
        if isinstance(writer, Mapping):
            holder = (
                f"process {writer.get('pid')} on host {writer.get('host')!r} "
                f"(since {writer.get('since')})"
            )
    return _bad(
        f"{path} is being written by {holder}: a simulation directory has one writer at a "
        "time; wait for that run to end (or stop it), then resume",
        OutputError,
    )


# -- the manifest and its parts, verified --------------------------------------------------------


def _is_int(value: object, low: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _empty_table(version: int = SCHEMA_VERSION) -> pa.Table:
    """No rows, in the columns and types of a part (of schema ``version``)."""
    cols = dict(_core.simulate_chunk(_empty_rules(), [("greedy",)] * 2, 0, 0, 0))
    return _in_version(arrow_table(cols, COLUMNS), version)


@dataclass
class Dataset:
    """An open simulation directory: what run it holds (``identity``, whose schema version is
    the directory's) and which parts are done; ``lock`` held while it is open for writing."""

    path: Path
    identity: dict[str, Any]
    parts: list[dict[str, Any]] = field(default_factory=list)
    lock: _Lock | None = None

    @property
    def run(self) -> str:
        return identity_key(self.identity)

    @property
    def runs(self) -> set[str]:
        """The digests a part of this run may carry: the run's, and for a run that records no
        tables (written before results named them) the digest of its identity without them,
        as its parts were described then."""
        out = {self.run}
        if not any(self.identity.get("tables") or []):
            out.add(identity_key({k: v for k, v in self.identity.items() if k != "tables"}))
        return out

    @property
    def players(self) -> int:
        return int(self.identity["players"])

    @property
    def version(self) -> int:
        return int(self.identity["schema_version"])

    def done(self) -> int:
        return sum(int(p["count"]) for p in self.parts)

    def gaps(self) -> list[tuple[int, int]]:
        """The (first, count) ranges of rounds not done, in order."""
        out, at = [], 0
        for p in sorted(self.parts, key=lambda p: p["first"]):
            if p["first"] > at:
                out.append((at, p["first"] - at))
            at = max(at, p["first"] + p["count"])
        total = int(self.identity["rounds"])
        if at < total:
            out.append((at, total - at))
        return out

    def tally(self) -> _core.SeatTally:
        t = _core.SeatTally(self.players)
        for p in self.parts:
            t.merge(tally_of(self.players, p["tally"]))
        return t

    def close(self) -> None:
        """Releases the directory to the next writer."""
        if self.lock is not None:
            self.lock.release()

    def _save(self) -> None:
        manifest = {
            **self.identity,
            "package_version": _core.__version__,  # the package that wrote it last
            "writer": _holder(),
            "done": self.done(),
            "complete": self.done() == int(self.identity["rounds"]),
            "parts": sorted(self.parts, key=lambda p: p["first"]),
        }
        text = json.dumps(manifest, indent=1)
        try:
            if self.version == 2:
                _atomic_write(self.path / LEGACY_MANIFEST, text.encode())
            else:
                _atomic_write(self.path / MANIFEST, _manifest_file(text))
        except OSError as e:
            raise OutputError(f"writing the manifest of {self.path} failed: {e}") from e

    def commit(self, part: Mapping[str, Any]) -> None:
        """Adds a finished part (written by ``write_part``, with its ``tally``) to the manifest
        (again: the same entry, so a part written twice after an interrupt is listed once)."""
        before = list(self.parts)
        self.parts = [p for p in self.parts if p["first"] != part["first"]] + [dict(part)]
        try:
            self._save()
        except BaseException:
            self.parts = before
            raise

    def write(self, table: pa.Table, first: int, count: int, tally: _core.SeatTally) -> None:
        """Writes and commits one part."""
        part = write_part(self.path, table, first, count, self.identity)
        self.commit({**part, "tally": tally_state(tally)})

    def check_entry(self, entry: object) -> str | None:
        """What is wrong with one manifest entry, or ``None``: its form (a file named as a part
        of this directory, never a path elsewhere; its round range within the run; its sums),
        then the file against it: there, a regular file of the recorded size, whose own
        Parquet metadata names this run, the same round range and as many rows."""
        import pyarrow.parquet as pq

        if not isinstance(entry, Mapping):
            return f"an entry that is not an object ({type(entry).__name__})"
        name, first, count = entry.get("file"), entry.get("first"), entry.get("count")
        if not isinstance(name, str) or not _PART.fullmatch(name):
            return f"file {name!r} is not a part's name (part-<13 digits>.parquet in the directory)"
        if not isinstance(first, int) or not isinstance(count, int):
            return f"round range {first!r} + {count!r} is not two numbers"
        if not _is_int(first) or not _is_int(count) or name != part_name(first):
            return f"round range {first!r} + {count!r} does not match the file's name"
        if first + count > int(self.identity["rounds"]):
            total = self.identity["rounds"]
            return f"rounds {first} to {first + count - 1} are past the run's {total}"
        size = entry.get("size")
        if size is not None and not _is_int(size):
            return f"size {size!r} is not a number of bytes"
        try:
            tally = tally_of(self.players, entry["tally"])
        except Exception:
            return "its sums are damaged"
        if tally.rounds != count:
            return f"its sums count {tally.rounds} rounds, not {count}"
        path = self.path / name
        try:
            st = path.lstat()
        except FileNotFoundError:
            return "the file is missing"
        except OSError as e:
            return f"the file cannot be read ({e.strerror or e})"
        if not stat.S_ISREG(st.st_mode):
            return "not a regular file"
        if size is not None and st.st_size != size:
            return f"{st.st_size:,} bytes, not the {size:,} written"
        try:
            meta = pq.read_metadata(path)
            data = json.loads((meta.metadata or {})[_META_KEY])
        except Exception:
            return "not a whole Parquet file of this package (truncated or damaged)"
        if not isinstance(data, Mapping) or data.get("run") not in self.runs:
            return "it holds rows of another run"
        if data.get("first") != first or data.get("count") != count:
            return (
                f"it holds rounds {data.get('first')!r} + {data.get('count')!r}, "
                f"not {first} + {count}"
            )
        if meta.num_rows != count * self.players:
            return f"{meta.num_rows:,} rows, not {count * self.players:,}"
        return None

    def verified(self, entries: object) -> tuple[list[dict[str, Any]], list[str]]:
        """The manifest's entries that hold up (`check_entry()`), in round order and not
        overlapping (a part listed twice is kept once), and what is wrong with the others,
        each naming its entry."""
        if not isinstance(entries, list):
            return [], [f"parts: expected a list, got {type(entries).__name__}"]
        good: list[dict[str, Any]] = []
        bad: list[str] = []
        for i, entry in enumerate(entries):
            why = self.check_entry(entry)
            if why is None:
                good.append(dict(entry))  # type: ignore[call-overload,unused-ignore]
            else:
                label = entry.get("file") if isinstance(entry, Mapping) else None
                bad.append(f"part {i} ({label!r}): {why}")
        good.sort(key=lambda p: (p["first"], p["count"]))
        kept: list[dict[str, Any]] = []
        for p in good:
            if kept and p["first"] < kept[-1]["first"] + kept[-1]["count"]:
                bad.append(f"part {p['file']!r}: overlaps {kept[-1]['file']!r} (listed twice)")
                continue
            kept.append(p)
        return kept, bad

    def tidy(self) -> None:
        """Adopts the finished parts of this run missing from the manifest (a kill between the
        rename and the manifest, a cancelled Ray task), and deletes temporary files and parts
        that are not this run's or overlap what is done."""
        import pyarrow.parquet as pq

        listed = {p["file"] for p in self.parts}
        adopted = False
        for entry in sorted(os.scandir(self.path), key=lambda e: e.name):
            name = entry.name
            if name.startswith(_TEMP_PREFIX) or (name.startswith(".") and name.endswith(".tmp")):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
                continue
            if not _PART.fullmatch(name) or name in listed:
                continue
            keep = False
            with contextlib.suppress(Exception):
                meta = json.loads(pq.read_schema(entry.path).metadata[_META_KEY])
                first, count = int(meta["first"]), int(meta["count"])
                free = all(
                    first + count <= p["first"] or p["first"] + p["count"] <= first
                    for p in self.parts
                )
                if (
                    meta["run"] in self.runs
                    and free
                    and first + count <= self.identity["rounds"]
                    and name == part_name(first)
                ):
                    cols = numpy_columns(pq.read_table(entry.path))
                    t = _core.SeatTally(self.players)
                    if len(cols["points"]) == count * self.players:
                        t.add(cols["points"], cols["scoops"], cols["sweep"], cols["status"])
                        size = os.stat(entry.path).st_size
                        self.parts.append(
                            {
                                "file": name,
                                "first": first,
                                "count": count,
                                "size": size,
                                "tally": tally_state(t),
                            }
                        )
                        keep = adopted = True
            if not keep:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        if adopted:
            self._save()


def _manifest_file(text: str) -> bytes:
    """The manifest ``text`` as a Parquet file of no rows in the parts' columns."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = _empty_table().replace_schema_metadata({MANIFEST_KEY: text.encode()})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd", use_dictionary=False)
    return bytes(sink.getvalue().to_pybytes())


def load_manifest(directory: Path) -> dict[str, Any]:
    """The manifest of a simulation directory as data (for tools and tests)."""
    found = _read_manifest(Path(directory), "path")
    if found is None:
        raise _bad(f"{directory} has no manifest", name="path")
    return found[0]


def store_manifest(directory: Path, data: Mapping[str, Any]) -> None:
    """Replaces a simulation directory's manifest with ``data`` as it is (for tools and tests:
    a run's writer keeps its own)."""
    text = json.dumps(data, indent=1)
    _atomic_write(Path(directory) / MANIFEST, _manifest_file(text))


def _ours(path: Path) -> bool:
    """Every file in ``path`` is part of a simulation dataset (or it is empty)."""
    for entry in os.scandir(path):
        n = entry.name
        if not (
            n in (MANIFEST, LEGACY_MANIFEST)
            or _PART.fullmatch(n)
            or (n.startswith(".") and n.endswith(".tmp"))
        ):
            return False
    return True


def _read_manifest(path: Path, name: str = "out") -> tuple[dict[str, Any], int] | None:
    """The manifest of the simulation directory ``path`` and its schema version (``None``: it
    has none): ``_manifest.parquet``, or a version 2 directory's ``_manifest.json``. Its form
    is checked (the run's fields, players and rounds); errors name the argument ``name``."""
    import pyarrow.parquet as pq

    where = path / MANIFEST
    try:
        if where.exists():
            meta = pq.read_schema(where).metadata or {}
            if MANIFEST_KEY not in meta:
                raise ValueError("no manifest in its metadata")
            data = json.loads(meta[MANIFEST_KEY])
        else:
            where = path / LEGACY_MANIFEST
            data = json.loads(where.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError) as e:
        raise _bad(f"{where} is an unreadable manifest ({e})", name=name) from None
    except Exception as e:  # pyarrow's own errors: a damaged Parquet file
        raise _bad(f"{where} is an unreadable manifest ({e})", name=name) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(f"{where} is not the manifest of a simulation", name=name)
    version = _check_version(data, path, name)
    if (where.name == MANIFEST) != (version != 2):
        raise _bad(f"{where} holds a manifest of schema version {version}", name=name)
    missing = [k for k in RUN_KEYS if k not in data and k != "tables"]  # tables: since v2
    if missing:
        raise _bad(f"{where} is a damaged manifest: no {', '.join(missing)}", name=name)
    players, rounds = data["players"], data["rounds"]
    if not _is_int(players) or not _core.MIN_PLAYERS <= players <= _core.MAX_PLAYERS:
        raise _bad(f"{where} is a damaged manifest: players {players!r}", name=name)
    if not _is_int(rounds) or rounds > _core.MAX_ROUNDS:
        raise _bad(f"{where} is a damaged manifest: rounds {rounds!r}", name=name)
    if not isinstance(data["policies"], list) or len(data["policies"]) != players:
        raise _bad(f"{where} is a damaged manifest: policies are not one a seat", name=name)
    if not isinstance(data.get("parts", []), list):
        raise _bad(f"{where} is a damaged manifest: parts are not a list", name=name)
    return data, version


def _check_version(data: Mapping[str, Any], path: Path, name: str) -> int:
    """The schema version of a description, refused unless this package reads it (version 1
    named it ``version``, and in a single file, inside ``identity``)."""
    got = data.get("schema_version", data.get("version"))
    if got is None and isinstance(data.get("identity"), Mapping):
        got = data["identity"].get("version")
    if not _is_int(got) or got not in READ_VERSIONS:
        raise _bad(
            f"{path} was written in format version {got!r}; this package reads versions "
            f"{', '.join(str(v) for v in READ_VERSIONS)}",
            name=name,
        )
    return int(got)


def open_output(out: object, identity: dict[str, Any], *, resume: bool, overwrite: bool) -> Dataset:
    """Checks ``out`` and opens it for the run ``identity``, before any work: a new directory
    (its parent must exist), an empty one, or with ``resume`` the same run's directory, or with
    ``overwrite`` a simulation directory or a file to replace. Takes the directory's lock (a
    second writer is refused, naming the first) and writes the manifest at once, so a path
    that cannot be written fails here. With ``resume`` every listed part is verified
    (`Dataset.verified()`): one that fails is played again. Close the dataset
    (`Dataset.close()`) to release the lock."""
    path = output_path(out)
    if resume and overwrite:
        e = InvalidArgumentError('argument "resume": pass resume or overwrite, not both')
        e.argument = "resume"
        raise e
    parent = path.absolute().parent
    if not parent.is_dir():
        raise _bad(f"the folder {parent} does not exist")
    if path.exists() and not path.is_dir():
        if not overwrite:
            raise _bad(
                f"{path} exists and is not a simulation directory; pass overwrite=True to "
                "replace it"
            )
        try:
            path.unlink()
        except OSError as e:
            raise _bad(f"{path} cannot be replaced: {e}") from None
    try:
        path.mkdir(exist_ok=True)
    except OSError as e:
        raise _bad(f"{path} cannot be created: {e}") from None
    lock = _Lock.take(path)
    try:
        ds = _open_locked(path, identity, resume=resume, overwrite=overwrite)
    except BaseException:
        lock.release()
        raise
    ds.lock = lock
    return ds


def _open_locked(path: Path, identity: dict[str, Any], *, resume: bool, overwrite: bool) -> Dataset:
    fresh = Dataset(path, identity)
    try:
        found = _read_manifest(path)
    except ChinesePokerError:
        if not (overwrite and _ours(path)):
            raise
        found = ({}, SCHEMA_VERSION)  # a damaged manifest of ours: replaced below
    if found is None:
        if any(os.scandir(path)):
            raise _bad(f"{path} is a folder that holds no simulation; give a new or empty folder")
    else:
        manifest, version = found
        if resume:
            theirs = run_identity(identity, version)  # the run as that version records it
            mine = {k: manifest.get(k) for k in theirs}
            if mine["tables"] is None and isinstance(mine["policies"], list):
                mine["tables"] = [None] * len(mine["policies"])  # written before tables had ids
            if mine != theirs:
                differs = "; ".join(
                    _tables_differ(mine[k], theirs[k]) if k == "tables" else f"{k} differ"
                    for k in theirs
                    if mine[k] != theirs[k]
                )
                raise _bad(
                    f"{path} holds another run ({_describe(manifest)}; {differs}): "
                    "resume continues the same run only"
                )
            ds = Dataset(path, theirs)
            # parts that do not hold up are dropped (and their files, unless they can be
            # adopted as they are): their rounds are played again
            ds.parts, _ = ds.verified(manifest.get("parts", []))
            ds.tidy()
            ds._save()  # this writer, recorded
            return ds
        if not overwrite:
            raise _bad(
                f"{path} already holds a simulation ({_describe(manifest)}, "
                f"{manifest.get('done', 0)!r} rounds done); pass resume=True to continue it or "
                "overwrite=True to replace it"
            )
        if not _ours(path):
            raise _bad(f"{path} holds files that are not a simulation's; not replacing it")
        for entry in os.scandir(path):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
    try:
        fresh._save()
    except OutputError as e:
        raise _bad(f"{path} cannot be written: {e.__cause__}") from None
    return fresh


def _tables_differ(stored: object, now: object) -> str:
    """Which seats' strategy tables differ between a directory's run and this one, with both
    sources and digests."""

    def shown(t: object) -> str:
        if isinstance(t, Mapping):
            return f"{t.get('source')} tables {t.get('digest')}"
        return "no tables"

    old = stored if isinstance(stored, list) else []
    new = now if isinstance(now, list) else []
    seats = [
        f"seat {i}: the directory's run played {shown(a)}, this run would play {shown(b)}"
        for i, (a, b) in enumerate(zip(old, new, strict=False))
        if a != b
    ]
    return "tables differ (" + "; ".join(seats or ["a different number of seats"]) + ")"


@dataclass
class Stored:
    """A simulation read back: its run description (the run, the package version that wrote
    it, the first round), its rows, and how many rounds are done."""

    description: dict[str, Any]
    columns: dict[str, npt.NDArray[Any]]
    done: int


def _file_description(path: Path) -> dict[str, Any]:
    """The run description in a simulation file's metadata (``file_metadata``)."""
    import pyarrow.parquet as pq

    try:
        meta = pq.read_schema(path).metadata or {}
    except Exception as e:
        raise InvalidArgumentError(f'argument "path": {path} is not a Parquet file ({e})') from None
    try:
        data = json.loads(meta[_META_KEY])
    except (KeyError, ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidArgumentError(
            f'argument "path": {path} is not a simulation written by chinese_poker (no '
            "run description in its metadata)"
        )
    _check_version(data, path, "path")
    return data


def _path_arg(path_arg: object) -> Path:
    if isinstance(path_arg, bytes) or not isinstance(path_arg, str | os.PathLike):
        e = InvalidTypeError(
            f'argument "path": expected a path (str or os.PathLike), got {type(path_arg).__name__}'
        )
        e.argument = "path"
        raise e
    return Path(os.fspath(path_arg))


def _stored_files(path: Path) -> tuple[dict[str, Any], list[Path], int | None]:
    """The run description at ``path``, the Parquet files of its rows in round order, and the
    rounds they hold (``None``: count the rows): a simulation directory's manifest and listed
    parts, each verified against it (a part that does not hold up is an error naming it), or
    one file (``Simulation.to_parquet``'s, or a part) and its metadata."""
    if path.is_dir():
        found = _read_manifest(path, "path")
        if found is None:
            raise InvalidArgumentError(
                f'argument "path": {path} is not a simulation directory (no {MANIFEST})'
            )
        manifest, version = found
        description = {
            k: v for k, v in manifest.items() if k not in ("done", "complete", "parts", "writer")
        }
        ds = Dataset(path, run_identity(manifest, version))
        parts, bad = ds.verified(manifest.get("parts", []))
        if bad:
            raise _bad(
                f"{path} holds parts that do not match its manifest: {'; '.join(bad[:3])}"
                + (f" (and {len(bad) - 3} more)" if len(bad) > 3 else "")
                + "; resuming the run plays their rounds again",
                name="path",
            )
        return description, [path / p["file"] for p in parts], sum(int(p["count"]) for p in parts)
    if path.is_file():
        data = _file_description(path)
        description = {k: v for k, v in data.items() if k not in ("count", "run")}
        count = data.get("count")
        if count is not None and not _is_int(count):
            raise _bad(f"{path} holds a damaged run description (count {count!r})", name="path")
        return description, [path], count
    raise InvalidArgumentError(f'argument "path": {path} does not exist')


def _damaged(path: Path, e: BaseException) -> ChinesePokerError:
    return _bad(f"{path} holds a damaged run description ({e!r})", name="path")


def read(path_arg: object) -> Stored:
    """The run and rows stored at ``path_arg``: a simulation directory (the parts its manifest
    lists, verified) or a simulation's Parquet file (``Simulation.to_parquet``'s, or one
    part)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = _path_arg(path_arg)
    try:
        description, files, done = _stored_files(path)
        tables = [pq.read_table(f) for f in files]
        players = int(description["players"])
        if not _core.MIN_PLAYERS <= players <= _core.MAX_PLAYERS:
            raise ValueError(f"players {players}")
        columns = (
            numpy_columns(pa.concat_tables([t.replace_schema_metadata(None) for t in tables]))
            if tables
            else dict(_core.simulate_chunk(_empty_rules(), [("greedy",)] * players, 0, 0, 0))
        )
    except ChinesePokerError as e:
        if e.argument is None and str(e).startswith('argument "'):
            e.argument = str(e).split('"')[1]
        if e.argument is not None:
            raise
        raise _bad(f"{path} holds damaged rows ({e})", name="path") from None
    except (OSError, pa.ArrowException) as e:
        raise OutputError(f"reading the simulation at {path} failed: {e}") from e
    except Exception as e:  # whatever a damaged description makes go wrong: one error
        raise _damaged(path, e) from None
    if done is None:
        done = len(columns["points"]) // players
    return Stored(description, columns, done)


def read_columns(path: Path, names: Sequence[str]) -> dict[str, npt.NDArray[Any]]:
    """Only the columns ``names`` of the simulation stored at ``path``, as numpy (codes)."""
    import pyarrow.dataset as ds

    _, files, _ = _stored_files(path)
    dataset = ds.dataset([str(f) for f in files], format="parquet")
    present = set(dataset.schema.names)
    stored = [_RENAMED[2].get(n, n) if n not in present else n for n in names]
    return numpy_columns(dataset.to_table(columns=stored))


def iter_points(path: Path, players: int, rounds_per_block: int = 1 << 16) -> Iterator[Any]:
    """The ``points`` column of the simulation stored at ``path`` as ``(rounds, players)``
    blocks, one part at a time: a run larger than memory is read a block at a time. Every part
    holds whole rounds, so blocks of a multiple of ``players`` rows hold whole rounds too."""
    import pyarrow.parquet as pq

    _, files, _ = _stored_files(path)
    for f in files:
        with pq.ParquetFile(f) as part:
            for batch in part.iter_batches(rounds_per_block * players, columns=["points"]):
                yield batch.column(0).to_numpy().reshape(-1, players)


def _empty_rules() -> _core.Rules:
    from .rules import RuleSet

    return RuleSet().compiled
