"""The command line, ``chinese-poker`` (also ``python -m chinese_poker``): solve hands, settle a
round, run and plot simulations, duel two policies, read and write rule sets, train strategy
tables, play a demo round. ``chinese-poker COMMAND --help`` shows each command with an example.

Seats are numbered from 0 everywhere (P0, P1, ...), as in the Python API and in
``Settlement.explain()``. ``--json`` prints results as JSON for scripts. Cards are drawn with
suit symbols, hearts and diamonds in red when standard output is a terminal (``--color`` and
the ``NO_COLOR`` convention override that).

A bad argument is one line on stderr naming the argument and what it accepts, with exit code 2,
before any long work starts; no traceback reaches the user (an internal error is one line too,
with exit code 1; ``CHINESE_POKER_DEBUG=1`` shows its traceback). Ctrl-C exits with 130.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import os
import re
import secrets
import sys
import textwrap
import tomllib
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import _core
from .exceptions import ChinesePokerError
from .rules import RuleSet

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
PROG = "chinese-poker"

# The CLI's policy names: what `simulate --policy`, `duel A B` and `solve --objective` accept.
POLICY_NAMES = ("table", "mc", "greedy", "random")
OBJECTIVE_NAMES = POLICY_NAMES[:2]  # what can value a single hand (the solver's objectives)
DEFAULT_MC_SAMPLES = 200


class CliError(Exception):
    """A bad argument found after parsing: printed as one line, exit code 2."""


def _fail(argument: str, message: str) -> NoReturn:
    raise CliError(f"argument {argument}: {message}")


@contextlib.contextmanager
def _blame(argument: str, prefix: str = "") -> Iterator[None]:
    """Turns the package's input errors raised inside into one line naming ``argument``."""
    try:
        yield
    except ChinesePokerError as e:
        _fail(argument, f"{prefix}{e}")


class _Parser(argparse.ArgumentParser):
    """argparse, with errors on one line (argparse prints the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (usage: {self.prog} --help)\n")


def _int_arg(what: str, low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text.replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {what}, got {value}")
        return value

    parse.__name__ = what  # argparse names the type in some messages
    return parse


_SEED = _int_arg("a seed from 0 to 2**64 - 1", 0, 2**64 - 1)
_THREADS = _int_arg(f"a number of threads from 1 to {_core.MAX_THREADS}", 1, _core.MAX_THREADS)
_SAMPLES = _int_arg(
    f"a number of samples from {_core.MIN_SAMPLES} to {_core.MAX_SAMPLES:,}",
    _core.MIN_SAMPLES,
    _core.MAX_SAMPLES,
)


# -- output ------------------------------------------------------------------------------------

_RED_CARD = re.compile(r"(?:10|[2-9TJQKA])[♥♦]")


class _Style:
    """Colour for a terminal; plain text when piped, under ``NO_COLOR`` or ``--color never``."""

    on = False

    @classmethod
    def setup(cls, mode: str) -> None:
        if mode == "auto":
            cls.on = (
                sys.stdout.isatty()
                and "NO_COLOR" not in os.environ
                and os.environ.get("TERM") != "dumb"
            )
        else:
            cls.on = mode == "always"


def paint(text: str) -> str:
    """``text`` with hearts and diamonds in red where colour is on."""
    if not _Style.on:
        return text
    return _RED_CARD.sub(lambda m: f"\033[31m{m.group(0)}\033[0m", text)


def bold(text: str) -> str:
    return f"\033[1m{text}\033[0m" if _Style.on else text


def out(text: str = "") -> None:
    print(paint(text))


def out_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def cards_text(codes: Sequence[int]) -> str:
    return " ".join(_core.Card(int(c)).pretty() for c in codes)


def seat(i: int) -> str:
    return f"P{i}"


def table(header: Sequence[str], rows: Sequence[Sequence[str]], right: int = 1) -> str:
    """A plain text table; columns from ``right`` on are right-aligned (numbers)."""
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if i >= right else c.ljust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([bold(line(header)), rule, *(line(r) for r in rows)])


# -- shared arguments --------------------------------------------------------------------------


def load_rules(text: str, argument: str = "--rules") -> RuleSet:
    """A preset name, or a rule set stored as a JSON / TOML file."""
    path = Path(text)
    if path.suffix in (".json", ".toml"):
        try:
            data = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
            _fail(argument, f"cannot read {text!r} ({reason or e})")
        try:
            return RuleSet.from_json(data) if path.suffix == ".json" else RuleSet.from_toml(data)
        except (ValueError, RecursionError) as e:
            # a rule set file is user data: whatever is wrong with it is one line
            _fail(argument, f"{text!r}: {e}")
    if text not in _core.PRESET_NAMES:
        _fail(
            argument,
            f"unknown preset {text!r}; expected a rule set file (.json, .toml) or one of "
            f"{', '.join(_core.PRESET_NAMES)}",
        )
    return RuleSet.preset(text)


def _policy(name: str, samples: int) -> Any:
    from .simulate import Greedy, RandomLegal
    from .solver import MonteCarlo, TableEV

    if name == "table":
        return TableEV()
    if name == "mc":
        return MonteCarlo(samples=samples)
    if name == "greedy":
        return Greedy()
    return RandomLegal()


def _need_matplotlib(argument: str) -> None:
    from .plots import MISSING_MATPLOTLIB, have_matplotlib

    if not have_matplotlib():
        _fail(argument, MISSING_MATPLOTLIB)


def _check_out_file(argument: str, text: str, suffixes: tuple[str, ...]) -> Path:
    """Refuses an output path that cannot be written before the work that produces it."""
    path = Path(text)
    if path.suffix.lower() not in suffixes:
        _fail(argument, f"expected a {' or '.join(suffixes)} file name, got {text!r}")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        _fail(argument, f"directory {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK):
        _fail(argument, f"directory {str(parent)!r} is not writable")
    if path.is_dir():
        _fail(argument, f"{text!r} is a directory")
    return path


def _progress(args: argparse.Namespace) -> bool:
    # a bar in a log file is noise: shown on a terminal unless turned off
    return not args.no_progress and sys.stderr.isatty()


# -- solve -------------------------------------------------------------------------------------


def _hand_lines(args: argparse.Namespace) -> tuple[list[str], list[str], str]:
    """The hands to solve, a label for each (for messages) and the argument they came from."""
    if args.hands and args.file:
        _fail("--file", "give hands as arguments or in a file, not both")
    if args.hands and args.hands != ["-"]:
        return list(args.hands), [f"hand {i + 1}" for i in range(len(args.hands))], "HAND"
    if args.file and args.file != "-":
        try:
            text = Path(args.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
            _fail("--file", f"cannot read {args.file!r} ({reason or e})")
        source, argument = args.file, "--file"
    else:
        if sys.stdin.isatty() and not args.hands and not args.file:
            _fail("HAND", "give a hand (13 cards), --file FILE, or hands on standard input")
        text, source = sys.stdin.read(), "standard input"
        argument = "--file" if args.file else "HAND"
    hands, labels = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if line:
            hands.append(line)
            labels.append(f"{source} line {number}")
    if not hands:
        _fail(argument, f"no hands in {source} (one hand of 13 cards per line)")
    return hands, labels, argument


def cmd_solve(args: argparse.Namespace) -> None:
    from .solver import MonteCarlo, Solver, TableEV, parse_hands

    hands, labels, argument = _hand_lines(args)
    codes = None
    try:
        codes = parse_hands(hands)
    except ChinesePokerError as e:
        # the core names the 0-based line of the batch; say where it came from instead
        m = re.match(r"line (\d+): (.*)", str(e), re.S)
        if m is None:
            _fail(argument, str(e))
        i = int(m.group(1))
        _fail(argument, f"{labels[i]} ({hands[i][:40]!r}): {m.group(2)}")
    rules = load_rules(args.rules)
    objective = (
        MonteCarlo(samples=args.samples, seed=args.seed, threads=args.threads)
        if args.objective == "mc"
        else TableEV()
    )
    with _blame("--rules"):
        solver = Solver(rules, args.players, objective)
    solutions = [solver.solve(row, args.top) for row in codes]
    if args.json:
        out_json(
            [
                {"hand": " ".join(str(_core.Card(int(c))) for c in row), **sol.to_dict()}
                for row, sol in zip(codes, solutions, strict=True)
            ]
        )
        return
    for n, (row, sol) in enumerate(zip(codes, solutions, strict=True)):
        if len(solutions) > 1:
            out(("\n" if n else "") + bold(f"{labels[n]}: ") + cards_text(row))
        out(sol.explain().rstrip("\n"))


# -- settle ------------------------------------------------------------------------------------


def parse_decision(text: str) -> Any:
    """``"front / middle / back"``, ``"surrender"`` or ``"NATURAL: front / middle / back"``."""
    from .scoring import Declare, Setting, Surrender

    stripped = text.strip()
    if stripped.lower() == "surrender":
        return Surrender()
    head, sep, rest = stripped.partition(":")
    if sep and head.strip().lower() in _core.NATURAL_NAMES:
        return Declare(head.strip().lower(), Setting.parse(rest))
    return Setting.parse(stripped)


def _round_file(path: str) -> dict[str, Any]:
    """A round stored as JSON or TOML: ``seats`` (decisions as text), optional ``rules``,
    ``bankrolls`` and ``dealer``."""
    p = Path(path)
    if p.suffix.lower() not in (".json", ".toml"):
        _fail("--file", f"expected a .json or .toml round file, got {path!r}")
    try:
        raw = p.read_bytes()
        data = json.loads(raw) if p.suffix.lower() == ".json" else tomllib.loads(raw.decode())
    except OSError as e:
        _fail("--file", f"cannot read {path!r} ({e.strerror or e})")
    except (ValueError, RecursionError) as e:  # bad JSON, bad TOML, bad UTF-8
        _fail("--file", f"{path!r} is not valid {p.suffix[1:].upper()}: {str(e)[:120]}")
    if not isinstance(data, dict):
        _fail("--file", f"{path!r}: expected a table with a 'seats' list")
    unknown = sorted(set(data) - {"seats", "rules", "bankrolls", "dealer"})
    if unknown:
        _fail(
            "--file",
            f"{path!r}: unknown key {unknown[0]!r}; expected seats, rules, bankrolls, dealer",
        )
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        _fail("--file", f"{path!r}: 'seats' must be a list of settings as text, one per seat")
    return data


def cmd_settle(args: argparse.Namespace) -> None:
    from .scoring import settle

    if args.settings and args.file:
        _fail("--file", "give the settings as arguments or in a file, not both")
    if not args.settings and not args.file:
        _fail("SETTING", "give each seat's 'front / middle / back', or --file ROUND.toml")
    data: dict[str, Any] = _round_file(args.file) if args.file else {}
    texts: list[str] = data.get("seats") or args.settings
    argument = "--file" if args.file else "SETTING"
    decisions = []
    for i, text in enumerate(texts):
        with _blame(argument, f"{seat(i)} ({text[:40]!r}): "):
            decisions.append(parse_decision(text))
    if args.rules is not None:
        rules = load_rules(args.rules)
    elif isinstance(data.get("rules"), dict):
        with _blame("--file", "rules: "):
            rules = RuleSet.from_dict(data["rules"])
    elif isinstance(data.get("rules"), str):
        rules = load_rules(data["rules"], "--file (rules)")
    else:
        rules = RuleSet.preset(_core.PRESET_NAMES[0])
    bankrolls = args.bankrolls if args.bankrolls is not None else data.get("bankrolls")
    dealer = args.dealer if args.dealer is not None else data.get("dealer", 0)
    if args.bankrolls is not None and len(args.bankrolls) != len(decisions):
        _fail(
            "--bankrolls",
            f"expected {len(decisions)} amounts (one per seat), got {len(args.bankrolls)}",
        )
    if args.dealer is not None and args.dealer >= len(decisions):
        _fail("--dealer", f"expected a seat from 0 to {len(decisions) - 1}, got {args.dealer}")
    with _blame("--file" if args.file else "SETTING"):
        result = settle(decisions, rules, bankrolls=bankrolls, dealer=dealer)
    if args.json:
        out_json({"rules": rules.name, **result.to_dict()})
        return
    n = len(decisions)
    header = ["points for ↓ against →", *(seat(j) for j in range(n)), "total"]
    rows = [
        [
            seat(i),
            *("" if i == j else f"{result.points(i, j):+d}" for j in range(n)),
            f"{result.totals[i]:+d}",
        ]
        for i in range(n)
    ]
    out(f"Rule set {rules.name}, {n} players")
    out(table(header, rows))
    out()
    out(result.explain().rstrip("\n"))


# -- simulate and duel -------------------------------------------------------------------------


def _policies(args: argparse.Namespace) -> tuple[list[str], list[Any]]:
    """The CLI names of each seat's policy and the policies."""
    names = [n.strip() for n in args.policy.split(",")]
    for n in names:
        if n not in POLICY_NAMES:
            _fail("--policy", f"unknown policy {n!r}; expected {', '.join(POLICY_NAMES)}")
    if len(names) == 1:
        names *= args.players
    if len(names) != args.players:
        _fail(
            "--policy",
            f"expected one policy for every seat or {args.players} comma-separated "
            f"(one per seat), got {len(names)}",
        )
    return names, [_policy(n, args.samples) for n in names]


def _summary_rows(run: Any, names: Sequence[str]) -> str:
    def pct(x: float) -> str:
        return f"{x:.1%}"

    rows = [
        [
            seat(s.seat),
            names[s.seat],
            f"{s.mean:+.3f}",
            f"[{s.ci_low:+.3f}, {s.ci_high:+.3f}]",
            pct(s.scoop_rate),
            pct(s.sweep_rate),
            pct(s.foul_rate),
            pct(s.natural_rate),
            pct(s.surrender_rate),
        ]
        for s in run.summary()
    ]
    header = ["seat", "policy", "mean", "95% CI", "scoop", "sweep", "foul", "natural", "surr."]
    return table(header, rows, right=2)


def _simulation_json(run: Any, names: Sequence[str]) -> dict[str, Any]:
    return {
        "rules": run.rules,
        "players": run.players,
        "policies": list(names),
        "seed": run.seed,
        "rounds": run.rounds,
        "requested": run.requested,
        "interrupted": run.interrupted,
        "seconds": run.seconds,
        "parquet": None if run.parquet is None else str(run.parquet),
        "summary": [{**dataclasses.asdict(s), "policy": names[s.seat]} for s in run.summary()],
    }


def cmd_simulate(args: argparse.Namespace) -> None:
    from .simulate import simulate

    rules = load_rules(args.rules)
    other = None if args.compare is None else load_rules(args.compare, "--compare")
    names, policies = _policies(args)
    target = None if args.out is None else _check_out_file("--out", args.out, (".parquet",))
    if target is not None:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            _fail("--out", "writing Parquet needs pyarrow: pip install 'chinese-poker[arrow]'")
    if args.plot is not None:
        _need_matplotlib("--plot")
        _check_out_file("--plot", args.plot, (".png", ".svg", ".pdf"))
    runs = []
    for rs, path in ((rules, target), (other, None)):
        if rs is None:
            continue
        with _blame("--rules"):
            runs.append(
                simulate(
                    args.rounds,
                    args.players,
                    rs,
                    policies,
                    seed=args.seed,
                    threads=args.threads,
                    progress=_progress(args),
                    out=path,
                )
            )
    if args.plot is not None:
        from . import plots

        plots.save(plots.report(runs[0], compare=runs[1] if len(runs) > 1 else None), args.plot)
    if args.json:
        data = [_simulation_json(r, names) for r in runs]
        out_json(data[0] if len(data) == 1 else data)
        return
    for n, run in enumerate(runs):
        out(("\n" if n else "") + f"Rule set {run.rules}, {run.players} players, seed {run.seed}")
        out(_summary_rows(run, names))
        rate = run.rounds / run.seconds if run.seconds > 0 else math.inf
        note = f" (interrupted: {run.rounds:,} of {run.requested:,})" if run.interrupted else ""
        out(f"{run.rounds:,} rounds in {run.seconds:.1f} s, {rate:,.0f} rounds/s{note}")
        if run.parquet is not None:
            out(f"rows written to {run.parquet}")
    if args.plot is not None:
        out(f"plot written to {args.plot}")


def cmd_duel(args: argparse.Namespace) -> None:
    from .simulate import duel

    rules = load_rules(args.rules)
    if args.plot is not None:
        _need_matplotlib("--plot")
        _check_out_file("--plot", args.plot, (".png", ".svg", ".pdf"))
    a, b = (_policy(n, args.samples) for n in (args.a, args.b))
    with _blame("--rules"):
        res = duel(
            a,
            b,
            deals=args.deals,
            rules=rules,
            players=args.players,
            seed=args.seed,
            threads=args.threads,
            progress=_progress(args),
        )
    if args.plot is not None:
        from . import plots

        plots.save(plots.duel_edges(res), args.plot)
    if args.json:
        data = {f.name: getattr(res, f.name) for f in dataclasses.fields(res) if f.name != "edges"}
        if math.isinf(data["deals_needed"]):
            data["deals_needed"] = None  # JSON has no infinity
        out_json(data)
        return
    out(str(res))
    verdict = (
        f"{args.a} is better"
        if res.ci_low > 0
        else f"{args.b} is better"
        if res.ci_high < 0
        else "no resolved difference at this number of deals"
    )
    out(f"{verdict}{' (interrupted)' if res.interrupted else ''}")
    if args.plot is not None:
        out(f"plot written to {args.plot}")


# -- rules -------------------------------------------------------------------------------------


def _flat(data: Any, prefix: str = "") -> dict[str, Any]:
    """A rule set's data keyed by the field paths users see (``bonus.middle.full_house``)."""
    if isinstance(data, dict) and data:
        flat: dict[str, Any] = {}
        for key, value in data.items():
            flat.update(_flat(value, f"{prefix}.{key}" if prefix else key))
        return flat
    return {prefix: data}


def _shown(value: Any) -> str:
    return "(none)" if value is None or value == {} else json.dumps(value, ensure_ascii=False)


def _wrapped(text: str, indent: str = "  ") -> str:
    return textwrap.fill(text, 96, initial_indent=indent, subsequent_indent=indent)


def cmd_rules(args: argparse.Namespace) -> None:
    if args.rules_command == "list":
        presets = [RuleSet.preset(n) for n in _core.PRESET_NAMES]
        if args.json:
            out_json([{"name": r.name, "description": r.description} for r in presets])
            return
        for r in presets:
            out(bold(r.name))
            out(_wrapped(r.description))
        return
    if args.rules_command == "show":
        rs = load_rules(args.name, "NAME")
        if args.json:
            out_json(rs.to_dict())
            return
        for field in (f for f in _core.TEXT_FIELDS if f != "name"):
            if getattr(rs, field):
                out(f"# {field}: " + "\n# ".join(textwrap.wrap(getattr(rs, field), 90)))
        out(rs.to_toml().rstrip("\n"))
        return
    if args.rules_command == "diff":
        x, y = load_rules(args.x, "X"), load_rules(args.y, "Y")
        fx, fy = _flat(x.to_dict()), _flat(y.to_dict())
        paths = [p for p in dict.fromkeys([*fx, *fy]) if p not in _core.TEXT_FIELDS]
        changed = [p for p in paths if fx.get(p) != fy.get(p)]
        if args.json:
            out_json({p: [fx.get(p), fy.get(p)] for p in changed})
            return
        if not changed:
            out(f"{x.name} and {y.name} score the same (no field differs)")
            return
        rows = [[p, _shown(fx.get(p)), _shown(fy.get(p))] for p in changed]
        out(table(["field", x.name, y.name], rows, right=3))
        return
    # new
    base = load_rules(args.base, "--from")
    with _blame("--name"):
        house = base.replace(name=args.name)
    text = (
        f"# {args.name}: a rule set based on {base.name}. Change what your house does\n"
        "# differently; docs/rules.md lists every field with its default and bounds.\n"
        "# Use it with --rules FILE.toml, or RuleSet.from_toml(text) in Python.\n" + house.to_toml()
    )
    if args.out is None:
        print(text, end="")
        return
    path = _check_out_file("--out", args.out, (".toml",))
    path.write_text(text, encoding="utf-8")
    out(f"wrote {path}")


# -- tables and demo ---------------------------------------------------------------------------


def cmd_tables(args: argparse.Namespace) -> None:
    from .tables import DEFAULT_DEALS, check_writable, train_all, train_tables

    deals = DEFAULT_DEALS if args.deals is None else args.deals
    if args.all:
        if args.rules is not None or args.players is not None:
            _fail("--all", "trains every preset at 2-4 players; drop --rules and --players")
        target_dir = Path(args.out or "tables")
        train_all(target_dir, seed=args.seed, deals=deals, threads=args.threads)
        if args.json:
            out_json({"index": str(target_dir / "tables.json")})
        else:
            out(f"wrote {target_dir / 'tables.json'}")
        return
    rules_text = args.rules or _core.PRESET_NAMES[0]
    rules = load_rules(rules_text)
    stem = Path(rules_text).stem if Path(rules_text).suffix else rules_text
    players = args.players or 4
    # before training, which takes minutes: a bad --out fails now, not at the end
    try:
        target = check_writable(args.out or f"{stem}-{players}p.npz")
    except ChinesePokerError as e:
        _fail("--out", str(e).replace('argument "out": ', ""))

    def progress(iteration: int, delta: float) -> None:
        if not args.json:
            print(f"iteration {iteration}: largest move {delta:.4f}", flush=True)

    with warnings.catch_warnings():
        # reported below, in the summary line
        warnings.simplefilter("ignore", RuntimeWarning)
        res = train_tables(rules, players, args.seed, deals, target, args.threads, progress)
    meta = res["meta"]
    if args.json:
        out_json({k: v for k, v in meta.items() if isinstance(v, str | int | float | bool)})
        return
    note = "" if meta["converged"] else "; did not converge (try more --deals)"
    out(f"wrote {meta['path']} ({meta['iterations']} iterations, {meta['seconds']} s{note})")


def cmd_demo(args: argparse.Namespace) -> None:
    from .scoring import settle
    from .simulate import deal
    from .solver import solve

    rules = load_rules(args.rules)
    seed = secrets.randbelow(2**32) if args.seed is None else args.seed
    hands = deal(1, args.players, seed)[0]
    solutions = [solve(hand, rules, args.players, top_k=1) for hand in hands]
    result = settle([s.as_decision() for s in solutions], rules)
    if args.json:
        out_json(
            {
                "seed": seed,
                "rules": rules.name,
                "hands": [cards_text(h) for h in hands],
                "solutions": [s.to_dict() for s in solutions],
                "settlement": result.to_dict(),
            }
        )
        return
    replay = f"{PROG} demo --seed {seed} --players {args.players} --rules {args.rules}"
    out(f"Seed {seed} (replay this round: {replay})")
    for i, (hand, sol) in enumerate(zip(hands, solutions, strict=True)):
        out()
        out(bold(f"{seat(i)} is dealt ") + cards_text(hand))
        # the first line repeats the rule set and objective, said once above
        out("\n".join(sol.explain().rstrip("\n").splitlines()[1:]))
    out()
    out(result.explain().rstrip("\n"))


# -- the parser --------------------------------------------------------------------------------


def _command(
    sub: Any,
    name: str,
    summary: str,
    examples: Sequence[str],
    parents: Sequence[argparse.ArgumentParser],
    details: str = "",
) -> argparse.ArgumentParser:
    epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples)
    p: argparse.ArgumentParser = sub.add_parser(
        name,
        help=summary,
        description=summary + (f"\n\n{textwrap.fill(details, 88)}" if details else ""),
        epilog=epilog,
        parents=list(parents),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return p


def build_parser() -> argparse.ArgumentParser:
    from .tables import MAX_DEALS

    parser = _Parser(
        prog=PROG,
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog='examples:\n  chinese-poker solve "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"\n'
        "  chinese-poker COMMAND --help",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {_core.__version__}")
    common = _Parser(add_help=False)
    common.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="colour red suits: auto (on a terminal, unless NO_COLOR is set), always, never",
    )
    as_json = _Parser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="print the results as JSON")
    rules_arg = _Parser(add_help=False)
    rules_arg.add_argument(
        "--rules",
        default=_core.PRESET_NAMES[0],
        help=f"preset name or rule set file (.toml / .json); default {_core.PRESET_NAMES[0]}",
    )
    run = _Parser(add_help=False)
    run.add_argument("--seed", type=_SEED, default=0, help="seed of the deals (default 0)")
    run.add_argument("--threads", type=_THREADS, default=None, help="default: all cores")
    run.add_argument(
        "--samples",
        type=_SAMPLES,
        default=DEFAULT_MC_SAMPLES,
        help=f"sampled deals per hand of the mc policy (default {DEFAULT_MC_SAMPLES})",
    )
    run.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    players = _int_arg("a number of players from 2 to 4", 2, 4)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = _command(
        sub,
        "solve",
        "the best way to set 13 cards, its rows, value and the next best settings",
        [
            'chinese-poker solve "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d"',
            "chinese-poker solve --file hands.txt --rules pokerclub_south --players 3 --json",
            "cat hands.txt | chinese-poker solve --objective mc --samples 1000",
        ],
        [common, as_json, rules_arg],
        "Cards: rank 2-9, T or 10, J, Q, K, A and suit c d h s (or ♣ ♦ ♥ ♠), any case, "
        "separated by spaces or commas. A file or standard input holds one hand per line "
        "('#' starts a comment). Objectives: table (expected score against the table, from "
        "the shipped strategy tables; fast) or mc (Monte Carlo over sampled deals; slower, "
        "with a standard error).",
    )
    p.add_argument("hands", nargs="*", metavar="HAND", help="13 cards ('-': standard input)")
    p.add_argument("--file", help="a file of hands, one per line ('-': standard input)")
    p.add_argument("--players", type=players, default=4, help="table size (default 4)")
    p.add_argument("--objective", choices=OBJECTIVE_NAMES, default="table")
    p.add_argument(
        "--samples", type=_SAMPLES, default=1000, help="mc: sampled deals (default 1000)"
    )
    p.add_argument("--seed", type=_SEED, default=0, help="mc: seed (default 0)")
    p.add_argument(
        "--top", type=_int_arg("a number from 1 to 100", 1, 100), default=5, help="plays listed"
    )
    p.add_argument("--threads", type=_THREADS, default=None, help="mc: threads (default all)")
    p.set_defaults(run=cmd_solve)

    p = _command(
        sub,
        "settle",
        "score a round: the matchup table, the rule behind every number, totals",
        [
            'chinese-poker settle "Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s" '
            '"Ac Kc 7d / Jc Jd 8s 6c 4d / Ah Th 6h 3h 2h" surrender --rules pokerfever_eastern',
            "chinese-poker settle --file round.toml --json",
        ],
        [common, as_json],
        "Each seat (P0, P1, ... in order) is 'front / middle / back', 'surrender', or "
        "'NATURAL: front / middle / back' to declare a natural (e.g. 'dragon: ...'). A round "
        "file (.toml or .json) holds seats = [...] and optionally rules (a preset name or a "
        "rule set table), bankrolls = [...] and dealer; options given here override it.",
    )
    p.add_argument("settings", nargs="*", metavar="SETTING", help="one per seat, P0 first")
    p.add_argument("--file", help="a round file (.toml or .json)")
    p.add_argument("--rules", default=None, help="preset name or rule set file (default maceplay)")
    p.add_argument(
        "--bankrolls",
        type=_bankrolls,
        default=None,
        metavar="N,N,...",
        help="comma-separated, one per seat (for rule sets that cap payments)",
    )
    p.add_argument(
        "--dealer",
        type=_int_arg("a seat number from 0 to 3", 0, 3),
        default=None,
        help="the dealer's seat; payments are made from the seat after it (default 0)",
    )
    p.set_defaults(run=cmd_settle)

    p = _command(
        sub,
        "simulate",
        "self-play rounds: a progress bar, then each seat's mean points and their interval",
        [
            "chinese-poker simulate --rounds 10000 --players 4 --rules maceplay",
            "chinese-poker simulate --rounds 100000 --policy table,greedy,random,mc "
            "--out results.parquet --plot results.png",
            "chinese-poker simulate --rounds 5000 --compare one_six --plot cmp.png",
        ],
        [common, as_json, rules_arg, run],
        f"Policies: {', '.join(POLICY_NAMES)} (table objective, Monte Carlo, strongest back "
        "first, a random legal setting). --plot writes points per round, expected value by "
        "row category and calibration (with --compare: both rule sets' payoffs); needs "
        "matplotlib (pip install 'chinese-poker[plot]').",
    )
    p.add_argument(
        "--rounds",
        type=_int_arg("a number of rounds from 1 to 2**40", 1, 2**40),
        default=1000,
        help="default 1000",
    )
    p.add_argument("--players", type=players, default=4, help="default 4")
    p.add_argument(
        "--policy",
        default="table",
        help="one policy for every seat, or one per seat separated by commas (default table)",
    )
    p.add_argument("--out", default=None, help="stream the rows to this .parquet file")
    p.add_argument("--plot", default=None, help="write plots to this .png / .svg / .pdf")
    p.add_argument(
        "--compare",
        default=None,
        metavar="RULES",
        help="also play the same deals under these rules",
    )
    p.set_defaults(run=cmd_simulate)

    p = _command(
        sub,
        "duel",
        "duplicate deals of policy A against B: A's edge in points per hand, with its interval",
        [
            "chinese-poker duel table greedy --deals 2000 --rules two_four",
            "chinese-poker duel mc table --samples 500 --deals 300 --json",
        ],
        [common, as_json, rules_arg, run],
        f"Policies: {', '.join(POLICY_NAMES)}. Every deal is replayed with the seats rotated "
        "so that A holds each hand once, which cancels the luck of the deal. --plot writes "
        "the running edge and its interval over the deals.",
    )
    p.add_argument("a", choices=POLICY_NAMES, metavar="A", help="policy A")
    p.add_argument("b", choices=POLICY_NAMES, metavar="B", help="policy B")
    p.add_argument(
        "--deals",
        type=_int_arg("a number of deals from 1 to 2**40", 1, 2**40),
        default=2000,
        help="default 2000",
    )
    p.add_argument("--players", type=players, default=2, help="default 2")
    p.add_argument("--plot", default=None, help="write a plot to this .png / .svg / .pdf")
    p.set_defaults(run=cmd_duel)

    p = _command(
        sub,
        "rules",
        "the presets; show, compare and write rule sets",
        [
            "chinese-poker rules list",
            "chinese-poker rules show pokerfever_eastern",
            "chinese-poker rules diff maceplay shisanshui",
            "chinese-poker rules new --from maceplay --name 'our club' > house.toml",
            'chinese-poker solve "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d" --rules house.toml',
        ],
        [],
    )
    rules_sub = p.add_subparsers(dest="rules_command", required=True, metavar="ACTION")
    q = _command(
        rules_sub,
        "list",
        "the presets and what each plays",
        ["chinese-poker rules list"],
        [common, as_json],
    )
    q = _command(
        rules_sub,
        "show",
        "every field of a preset or rule set file, as TOML",
        ["chinese-poker rules show maceplay", "chinese-poker rules show house.toml --json"],
        [common, as_json],
    )
    q.add_argument("name", metavar="NAME", help="preset name or rule set file")
    q = _command(
        rules_sub,
        "diff",
        "the fields where two rule sets differ",
        ["chinese-poker rules diff pokerclub_south pokerclub_north"],
        [common, as_json],
    )
    q.add_argument("x", metavar="X", help="preset name or rule set file")
    q.add_argument("y", metavar="Y", help="preset name or rule set file")
    q = _command(
        rules_sub,
        "new",
        "a rule set to edit, as TOML on standard output (or --out)",
        ["chinese-poker rules new --from pokerclub_south --name 'our club' > house.toml"],
        [common],
    )
    q.add_argument("--from", dest="base", default=_core.PRESET_NAMES[0], help="preset or file")
    q.add_argument("--name", default="house", help="the new rule set's name (default house)")
    q.add_argument("--out", default=None, help="write this .toml file instead")
    p.set_defaults(run=cmd_rules)

    p = _command(
        sub,
        "tables",
        "strategy tables of the table objective",
        ["chinese-poker tables train --rules maceplay --players 4 --out maceplay-4p.npz"],
        [],
    )
    tables_sub = p.add_subparsers(dest="tables_command", required=True, metavar="ACTION")
    q = _command(
        tables_sub,
        "train",
        "build outcome tables by self-play",
        [
            "chinese-poker tables train --rules maceplay --players 4 --seed 0 --out m4.npz",
            "chinese-poker tables train --all --out python/chinese_poker/data",
        ],
        [common, as_json],
    )
    q.add_argument("--rules", default=None, help="preset name, or a rule set file (.json / .toml)")
    q.add_argument("--players", type=players, default=None, help="default 4")
    q.add_argument("--seed", type=_SEED, default=0)
    q.add_argument(
        "--deals",
        type=_int_arg(f"a number of deals from 1 to {MAX_DEALS:,}", 1, MAX_DEALS),
        default=None,
        help="deals per iteration (default 20,000)",
    )
    q.add_argument("--threads", type=_THREADS, default=None)
    q.add_argument("--out", default=None, help="output .npz (a directory with --all)")
    q.add_argument("--all", action="store_true", help="every preset at 2-4 players, with an index")
    p.set_defaults(run=cmd_tables)

    p = _command(
        sub,
        "demo",
        "deal a round, solve every hand and settle it; prints the seed to replay it",
        ["chinese-poker demo", "chinese-poker demo --players 3 --seed 42 --rules shisanshui"],
        [common, as_json, rules_arg],
    )
    p.add_argument("--players", type=players, default=4, help="default 4")
    p.add_argument("--seed", type=_SEED, default=None, help="default: a random seed, printed")
    p.set_defaults(run=cmd_demo)
    return parser


def _bankrolls(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected whole numbers separated by commas, got {text!r}"
        ) from None
    if any(v < 0 for v in values):
        raise argparse.ArgumentTypeError(f"expected amounts of 0 or more, got {text!r}")
    return values


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _Style.setup(getattr(args, "color", "auto"))
    prog = f"{PROG} {args.command}"

    def show_warning(message: Warning | str, *_: object, **__: object) -> None:
        # a warning is news for the user, not for a developer: one line, no source location
        print(f"{prog}: warning: {message}", file=sys.stderr)

    shown, warnings.showwarning = warnings.showwarning, show_warning
    try:
        args.run(args)
    except CliError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except ChinesePokerError as e:
        # anything the checks above did not catch first is still one line, never a traceback
        print(f"{prog}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # `chinese-poker ... | head`: the reader left; say nothing more
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:
        if os.environ.get("CHINESE_POKER_DEBUG"):
            raise
        # a bug, not a bad argument: still one line, and how to see the whole story
        print(
            f"{prog}: internal error: {type(e).__name__}: {e} (please report it; set "
            "CHINESE_POKER_DEBUG=1 for the traceback)",
            file=sys.stderr,
        )
        return 1
    finally:
        warnings.showwarning = shown  # main() may be called from Python, e.g. by tests
    return 0


if __name__ == "__main__":
    sys.exit(main())
