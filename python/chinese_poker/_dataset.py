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
labelled with the core's names; :func:`numpy_columns` reads them back as codes.

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

__all__ = ["FORMAT", "LABELS", "MANIFEST", "METADATA_KEY", "RUN_KEYS", "SCHEMA_VERSION"]

FORMAT = "chinese-poker-simulation"
"""The ``format`` of a simulation's manifest and of its parts' Parquet metadata."""
SCHEMA_VERSION = 2
"""The version of the rows' columns and of the run description (manifest and Parquet
metadata); a dataset of another version is read only by a package that knows it. 2: the code
columns are labelled dictionary columns, and the description holds the package version and
each file's round range (1: bare codes)."""
MANIFEST = "_manifest.json"
"""The manifest's file name inside a simulation directory."""
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
    "natural": _core.NATURAL_NAMES,
}
"""The code columns and their labels, the core's names indexed by the code: in Arrow and
Parquet these columns are dictionary columns of these labels (numpy keeps the codes)."""
_NULL_CODES = {"natural": _core.NO_NATURAL}
"""Codes written as null in the labelled columns (no natural declared)."""
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


def run_identity(description: Mapping[str, Any]) -> dict[str, Any]:
    """What makes two runs the same run, from a run's description (a provenance's
    ``to_dict()``, a manifest, a file's metadata): the format, the schema version and
    :data:`RUN_KEYS`, in the form JSON reads back (lists, not tuples), so that equal runs compare
    equal."""
    identity = {"format": FORMAT, "schema_version": SCHEMA_VERSION}
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
    their round range and the run's digest, as JSON under :data:`METADATA_KEY`."""
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
    :data:`LABELS` as dictionary columns of their labels."""
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
    labelled columns back to codes. A label the core does not know is an
    ``InvalidArgumentError``."""
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
        elif pa.types.is_dictionary(col.type) and name in LABELS:
            out[name] = _codes(col, name)
        else:
            out[name] = np.asarray(col.to_numpy())
    return out


def write_part(
    directory: Path, table: pa.Table, first: int, count: int, identity: Mapping[str, Any]
) -> dict[str, Any]:
    """Writes one finished part of the run ``identity``: its rows under a temporary name,
    flushed and renamed, described in its metadata (``file_metadata``). Returns its manifest
    entry (without the sums, which the caller adds)."""
    import pyarrow.parquet as pq

    meta = file_metadata(identity, _core.__version__, first, count)
    table = table.replace_schema_metadata(meta)
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
            "package_version": _core.__version__,  # the package that wrote it last
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
        part = write_part(self.path, table, first, count, self.identity)
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
    _check_version(data, path, name)
    return data


def _check_version(data: Mapping[str, Any], path: Path, name: str) -> None:
    """Refuses a description of another schema version (version 1 named it ``version``, and
    in a single file, inside ``identity``)."""
    got = data.get("schema_version", data.get("version", data.get("identity", {}).get("version")))
    if got != SCHEMA_VERSION:
        raise _bad(
            f"{path} was written in format version {got}; this package reads version "
            f"{SCHEMA_VERSION}",
            name=name,
        )


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
            if mine["tables"] is None and isinstance(mine["policies"], list):
                mine["tables"] = [None] * len(mine["policies"])  # written before tables had ids
            if mine != identity:
                differs = "; ".join(
                    _tables_differ(mine[k], identity[k]) if k == "tables" else f"{k} differ"
                    for k in identity
                    if mine[k] != identity[k]
                )
                raise _bad(
                    f"{path} holds another run ({_describe(manifest)}; {differs}): "
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
    except (KeyError, ValueError):
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
    parts, or one file (``Simulation.to_parquet``'s, or a part) and its metadata."""
    if path.is_dir():
        manifest = _read_manifest(path, "path")
        if manifest is None:
            raise InvalidArgumentError(
                f'argument "path": {path} is not a simulation directory (no {MANIFEST})'
            )
        description = {k: v for k, v in manifest.items() if k not in ("done", "complete", "parts")}
        parts = sorted(manifest.get("parts", []), key=lambda p: p["first"])
        return description, [path / p["file"] for p in parts], sum(int(p["count"]) for p in parts)
    if path.is_file():
        data = _file_description(path)
        description = {k: v for k, v in data.items() if k not in ("count", "run")}
        count = data.get("count")
        return description, [path], None if count is None else int(count)
    raise InvalidArgumentError(f'argument "path": {path} does not exist')


def read(path_arg: object) -> Stored:
    """The run and rows stored at ``path_arg``: a simulation directory (the parts its manifest
    lists) or a simulation's Parquet file (``Simulation.to_parquet``'s, or one part)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = _path_arg(path_arg)
    try:
        description, files, done = _stored_files(path)
        tables = [pq.read_table(f) for f in files]
        players = int(description["players"])
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
    except (KeyError, TypeError, ValueError) as e:
        raise _bad(f"{path} holds a damaged run description ({e!r})", name="path") from None
    if done is None:
        done = len(columns["points"]) // players
    return Stored(description, columns, done)


def read_columns(path: Path, names: Sequence[str]) -> dict[str, npt.NDArray[Any]]:
    """Only the columns ``names`` of the simulation stored at ``path``, as numpy (codes)."""
    import pyarrow.dataset as ds

    _, files, _ = _stored_files(path)
    table = ds.dataset([str(f) for f in files], format="parquet").to_table(columns=list(names))
    return numpy_columns(table)


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
