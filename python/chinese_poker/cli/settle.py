"""score a round: the matchup table, the rule behind every number, totals

Each seat (P0, P1, ... in order) is 'front / middle / back', 'surrender', or 'NATURAL: front /
middle / back' to declare a natural (e.g. 'dragon: ...'). A round file (.toml or .json) holds
seats = [...] and optionally rules (a preset name or a rule set table), bankrolls = [...] and
dealer; options given here override it.

Examples:
    chinese-poker settle "Qs Qh Qd / 5s 5h 5d Ks Kh / 9s 9h 9d 9c 2s"
        "Ac Kc 7d / Jc Jd 8s 6c 4d / Ah Th 6h 3h 2h" surrender --rules pokerfever_eastern
    chinese-poker settle --file round.toml --json
    cat round.json | chinese-poker settle --file -
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

from .. import _core
from ..rules import RuleSet
from ._options import Shared, command, int_arg
from ._shared import blame, fail, load_rules, out, out_json, seat, table


def register(sub: Any, shared: Shared) -> None:
    p = command(sub, __name__, __doc__, [shared.common, shared.as_json])
    p.add_argument("settings", nargs="*", metavar="SETTING", help="one per seat, P0 first")
    p.add_argument("--file", help="a round file (.toml or .json; '-': JSON or TOML on stdin)")
    p.add_argument(
        "--rules",
        default=None,
        help=f"preset name or rule set file (default {_core.DEFAULT_PRESET})",
    )
    p.add_argument(
        "--bankrolls",
        type=_bankrolls,
        default=None,
        metavar="N,N,...",
        help="comma-separated, one per seat (for rule sets that cap payments)",
    )
    p.add_argument(
        "--dealer",
        type=int_arg("a seat number from 0 to 3", 0, 3),
        default=None,
        help="the dealer's seat; payments are made from the seat after it (default 0)",
    )
    p.set_defaults(run=run)


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


def parse_decision(text: str) -> Any:
    """``"front / middle / back"``, ``"surrender"`` or ``"NATURAL: front / middle / back"``: a
    ``Setting``, ``Surrender`` or ``Declare``, read by the core (the service's reader too)."""
    return _core.parse_decision(text)


def _round_file(path: str) -> dict[str, Any]:
    """A round stored as JSON or TOML: ``seats`` (decisions as text), optional ``rules``,
    ``bankrolls`` and ``dealer``."""
    p, raw = Path(path), None
    if path == "-":
        raw = sys.stdin.buffer.read()
        json_first = raw.lstrip().startswith(b"{")
        p = Path("standard input" + (".json" if json_first else ".toml"))
    elif p.suffix.lower() not in (".json", ".toml"):
        fail("--file", f"expected a .json or .toml round file, got {path!r}")
    try:
        raw = p.read_bytes() if raw is None else raw
        data = json.loads(raw) if p.suffix.lower() == ".json" else tomllib.loads(raw.decode())
    except OSError as e:
        fail("--file", f"cannot read {path!r} ({e.strerror or e})")
    except (ValueError, RecursionError) as e:  # bad JSON, bad TOML, bad UTF-8
        fail("--file", f"{path!r} is not valid {p.suffix[1:].upper()}: {str(e)[:120]}")
    if not isinstance(data, dict):
        fail("--file", f"{path!r}: expected a table with a 'seats' list")
    unknown = sorted(set(data) - {"seats", "rules", "bankrolls", "dealer"})
    if unknown:
        fail(
            "--file",
            f"{path!r}: unknown key {unknown[0]!r}; expected seats, rules, bankrolls, dealer",
        )
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        fail("--file", f"{path!r}: 'seats' must be a list of settings as text, one per seat")
    return data


def run(args: argparse.Namespace) -> None:
    from ..scoring import settle

    if args.settings and args.file:
        fail("--file", "give the settings as arguments or in a file, not both")
    if not args.settings and not args.file:
        fail("SETTING", "give each seat's 'front / middle / back', or --file ROUND.toml")
    data: dict[str, Any] = _round_file(args.file) if args.file else {}
    texts: list[str] = data.get("seats") or args.settings
    argument = "--file" if args.file else "SETTING"
    decisions = []
    for i, text in enumerate(texts):
        with blame(argument, f"{seat(i)} ({text[:40]!r}): "):
            decisions.append(parse_decision(text))
    if args.rules is not None:
        rules = load_rules(args.rules)
    elif isinstance(data.get("rules"), dict):
        with blame("--file", "rules: "):
            rules = RuleSet.from_dict(data["rules"])
    elif isinstance(data.get("rules"), str):
        rules = load_rules(data["rules"], "--file (rules)")
    elif data.get("rules") is not None:
        # `rules = 5` is a mistake in the file, not a reason to settle under the default
        fail(
            "--file",
            "rules: expected a preset name or a rule set table, got "
            f"{type(data['rules']).__name__}",
        )
    else:
        rules = RuleSet.preset(_core.DEFAULT_PRESET)
    bankrolls = args.bankrolls if args.bankrolls is not None else data.get("bankrolls")
    dealer = args.dealer if args.dealer is not None else data.get("dealer", 0)
    if args.bankrolls is not None and len(args.bankrolls) != len(decisions):
        fail(
            "--bankrolls",
            f"expected {len(decisions)} amounts (one per seat), got {len(args.bankrolls)}",
        )
    if args.dealer is not None and args.dealer >= len(decisions):
        fail("--dealer", f"expected a seat from 0 to {len(decisions) - 1}, got {args.dealer}")
    with blame("--file" if args.file else "SETTING"):
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
