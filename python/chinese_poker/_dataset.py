"""Crash-safe simulation output: a directory of finished Parquet parts and a manifest.

``simulate(out=DIR)`` writes the rows of a run as parts ``part-<first round>.parquet``, each
written under a hidden temporary name (``.part-...tmp``, which Parquet readers skip), flushed to
disk and renamed when complete, so a file named ``part-*`` is always a whole part. The manifest
``_manifest.json`` (also skipped by readers) says which run the directory holds (its rule set,
players, policies, seed, rounds and the format version) and which parts, with their round
ranges and per-seat sums, are done; it is replaced atomically (temporary file, fsync, rename)
after each part. So Ctrl-C, a kill or a full disk loses at most the part being written, and
``resume=True`` plays only the rounds not done: a round depends only on the seed and its index,
so the resumed rows are exactly those of an uninterrupted run.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import _core
from .exceptions import ChinesePokerError, InvalidArgumentError, InvalidTypeError, OutputError

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["FORMAT", "MANIFEST", "SCHEMA_VERSION"]

FORMAT = "chinese-poker-simulation"
"""The ``format`` of a simulation's manifest and of its parts' Parquet metadata."""
SCHEMA_VERSION = 1
"""The version of the rows' columns and of the manifest; a dataset of another version is
read only by a package that knows it."""
MANIFEST = "_manifest.json"
"""The manifest's file name inside a simulation directory."""
_META_KEY = b"chinese_poker"
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


def identity_key(identity: Mapping[str, Any]) -> str:
    """A digest of what makes two runs the same run."""
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


def arrow_table(cols: Mapping[str, npt.NDArray[Any]], names: Sequence[str]) -> pa.Table:
    """Columns as an Arrow table: (N, k) arrays as fixed-size lists of k."""
    import pyarrow as pa

    def fixed(a: npt.NDArray[Any], width: int) -> pa.Array:
        return pa.FixedSizeListArray.from_arrays(
            pa.array(np.ascontiguousarray(a).reshape(-1)), width
        )

    arrays = {
        name: fixed(cols[name], cols[name].shape[1])
        if cols[name].ndim == 2
        else pa.array(cols[name])
        for name in names
    }
    return pa.table(arrays)


def numpy_columns(table: pa.Table) -> dict[str, npt.NDArray[Any]]:
    """An Arrow table of simulation rows as numpy columns (the inverse of ``arrow_table``)."""
    import pyarrow as pa

    out: dict[str, npt.NDArray[Any]] = {}
    for name in table.column_names:
        col = table.column(name)
        if pa.types.is_fixed_size_list(col.type):
            width = col.type.list_size
            flat = (
                col.combine_chunks().flatten()
                if col.num_chunks
                else pa.array([], col.type.value_type)
            )
            out[name] = np.asarray(flat.to_numpy(zero_copy_only=False)).reshape(-1, width)
        else:
            out[name] = np.asarray(col.to_numpy())
    return out


def write_part(
    directory: Path, table: pa.Table, first: int, count: int, run: str
) -> dict[str, Any]:
    """Writes one finished part: its rows under a temporary name, flushed and renamed. Returns
    its manifest entry (without the sums, which the caller adds)."""
    import pyarrow.parquet as pq

    meta = json.dumps({"format": FORMAT, "run": run, "first": first, "count": count})
    table = table.replace_schema_metadata({_META_KEY: meta.encode()})
    name = part_name(first)
    tmp = directory / f"{_TEMP_PREFIX}{first:013d}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            pq.write_table(table, f, compression="zstd", use_dictionary=False)
            f.flush()
            os.fsync(f.fileno())
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
    return {"file": name, "first": first, "count": count}


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
    return (
        f"{identity.get('rounds')} rounds of {identity.get('players')} players, seed "
        f"{identity.get('seed')}, rule set {identity.get('rules', {}).get('name')!r}"
    )


@dataclass
class Dataset:
    """An open simulation directory: what run it holds and which parts are done."""

    path: Path
    identity: dict[str, Any]
    parts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def run(self) -> str:
        return identity_key(self.identity)

    @property
    def players(self) -> int:
        return int(self.identity["players"])

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

    def _save(self) -> None:
        manifest = {
            **self.identity,
            "done": self.done(),
            "complete": self.done() == int(self.identity["rounds"]),
            "parts": sorted(self.parts, key=lambda p: p["first"]),
        }
        try:
            _atomic_write(self.path / MANIFEST, json.dumps(manifest, indent=1).encode())
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
        part = write_part(self.path, table, first, count, self.run)
        self.commit({**part, "tally": tally_state(tally)})

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
                if meta["run"] == self.run and free and first + count <= self.identity["rounds"]:
                    cols = numpy_columns(pq.read_table(entry.path))
                    t = _core.SeatTally(self.players)
                    if len(cols["points"]) == count * self.players:
                        t.add(cols["points"], cols["scoops"], cols["sweep"], cols["status"])
                        self.parts.append(
                            {"file": name, "first": first, "count": count, "tally": tally_state(t)}
                        )
                        keep = adopted = True
            if not keep:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        if adopted:
            self._save()


def _ours(path: Path) -> bool:
    """Every file in ``path`` is part of a simulation dataset (or it is empty)."""
    for entry in os.scandir(path):
        n = entry.name
        if not (n == MANIFEST or _PART.fullmatch(n) or (n.startswith(".") and n.endswith(".tmp"))):
            return False
    return True


def _read_manifest(path: Path, name: str = "out") -> dict[str, Any] | None:
    """The manifest of the simulation directory ``path`` (``None``: it has none); errors name
    the argument ``name``."""
    try:
        data = json.loads((path / MANIFEST).read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise _bad(f"{path} holds an unreadable manifest ({e})", name=name) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _bad(f"{path / MANIFEST} is not the manifest of a simulation", name=name)
    if data.get("version") != SCHEMA_VERSION:
        raise _bad(
            f"{path} was written in format version {data.get('version')}; this package reads "
            f"version {SCHEMA_VERSION}",
            name=name,
        )
    return data


def open_output(out: object, identity: dict[str, Any], *, resume: bool, overwrite: bool) -> Dataset:
    """Checks ``out`` and opens it for the run ``identity``, before any work: a new directory
    (its parent must exist), an empty one, or with ``resume`` the same run's directory, or with
    ``overwrite`` a simulation directory or a file to replace. Writes the manifest at once, so a
    path that cannot be written fails here."""
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
    fresh = Dataset(path, identity)
    if path.is_dir():
        try:
            manifest = _read_manifest(path)
        except ChinesePokerError:
            if not (overwrite and _ours(path)):
                raise
            manifest = {}  # a damaged manifest of ours: replaced below
        if manifest is None:
            if any(os.scandir(path)):
                raise _bad(
                    f"{path} is a folder that holds no simulation; give a new or empty folder"
                )
        elif resume:
            mine = {k: manifest.get(k) for k in identity}
            if mine != identity:
                differs = ", ".join(k for k in identity if mine[k] != identity[k])
                raise _bad(
                    f"{path} holds another run ({_describe(manifest)}; {differs} differ): "
                    "resume continues the same run only"
                )
            ds = Dataset(path, identity, list(manifest.get("parts", [])))
            ds.tidy()
            return ds
        elif not overwrite:
            raise _bad(
                f"{path} already holds a simulation ({_describe(manifest)}, "
                f"{manifest.get('done', 0):,} rounds done); pass resume=True to continue it or "
                "overwrite=True to replace it"
            )
        elif not _ours(path):
            raise _bad(f"{path} holds files that are not a simulation's; not replacing it")
        else:
            for entry in os.scandir(path):
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
    try:
        path.mkdir(exist_ok=True)
        fresh._save()
    except OutputError as e:
        raise _bad(f"{path} cannot be written: {e.__cause__}") from None
    except OSError as e:
        raise _bad(f"{path} cannot be created: {e}") from None
    return fresh


@dataclass
class Stored:
    """A simulation read back: its run, its rows, and how many rounds are done."""

    identity: dict[str, Any]
    columns: dict[str, npt.NDArray[Any]]
    done: int


def _file_identity(path: Path) -> dict[str, Any]:
    import pyarrow.parquet as pq

    try:
        meta = pq.read_schema(path).metadata or {}
    except Exception as e:
        raise InvalidArgumentError(f'argument "path": {path} is not a Parquet file ({e})') from None
    try:
        data = json.loads(meta[_META_KEY])
        identity = data.get("identity")
    except (KeyError, ValueError):
        identity = None
    if not isinstance(identity, dict):
        raise InvalidArgumentError(
            f'argument "path": {path} is not a simulation written by chinese_poker (no '
            "run description in its metadata)"
        )
    return identity


def part_files(path: Path) -> list[str]:
    """The Parquet files of a stored simulation: the parts its manifest lists, in round order,
    or the file itself."""
    manifest = _read_manifest(path, "path") if path.is_dir() else None
    if manifest is None:
        return [str(path)]
    parts = sorted(manifest.get("parts", []), key=lambda p: p["first"])
    return [str(path / p["file"]) for p in parts]


def file_metadata(identity: Mapping[str, Any]) -> dict[bytes, bytes]:
    """The Parquet metadata of a single-file simulation (``Simulation.to_parquet``)."""
    return {_META_KEY: json.dumps({"format": FORMAT, "identity": identity}).encode()}


def read(path_arg: object) -> Stored:
    """The run and rows stored at ``path_arg``: a simulation directory (the parts its manifest
    lists) or a file written by ``Simulation.to_parquet``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if isinstance(path_arg, bytes) or not isinstance(path_arg, str | os.PathLike):
        e = InvalidTypeError(
            f'argument "path": expected a path (str or os.PathLike), got {type(path_arg).__name__}'
        )
        e.argument = "path"
        raise e
    path = Path(os.fspath(path_arg))
    try:
        if path.is_dir():
            manifest = _read_manifest(path, "path")
            if manifest is None:
                raise InvalidArgumentError(
                    f'argument "path": {path} is not a simulation directory (no {MANIFEST})'
                )
            identity = {k: v for k, v in manifest.items() if k not in ("done", "complete", "parts")}
            parts = sorted(manifest.get("parts", []), key=lambda p: p["first"])
            tables = [pq.read_table(path / p["file"]) for p in parts]
            done = sum(int(p["count"]) for p in parts)
        elif path.is_file():
            identity = _file_identity(path)
            tables = [pq.read_table(path)]
            done = -1
        else:
            raise InvalidArgumentError(f'argument "path": {path} does not exist')
    except ChinesePokerError as e:
        if e.argument is None and str(e).startswith('argument "'):
            e.argument = str(e).split('"')[1]
        raise
    except (OSError, pa.ArrowException) as e:
        raise OutputError(f"reading the simulation at {path} failed: {e}") from e
    columns: dict[str, npt.NDArray[Any]] | None = None
    if tables:
        table = pa.concat_tables([t.replace_schema_metadata(None) for t in tables])
        columns = numpy_columns(table)
    players = int(identity["players"])
    if columns is None:
        columns = dict(_core.simulate_chunk(_empty_rules(), [("greedy",)] * players, 0, 0, 0))
    if done < 0:
        done = len(columns["points"]) // players
    return Stored(identity, columns, done)


def _empty_rules() -> _core.Rules:
    from .rules import RuleSet

    return RuleSet().compiled
