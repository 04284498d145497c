"""the presets; show, compare and write rule sets

Examples:
    chinese-poker rules list
    chinese-poker rules show pokerfever_eastern
    chinese-poker rules diff maceplay shisanshui
    chinese-poker rules new --from maceplay --name 'our club' > house.toml
    chinese-poker solve "As Ks Qs Js 9h 9d 7c 6c 5d 4h 3s 2s 2d" --rules house.toml
"""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from .. import _core
from ..about import docs_url
from ..rules import RuleSet
from ._options import Shared, command
from ._shared import blame, bold, check_out_file, fail, load_rules, out, out_json, table

# each action's help, as a command's docstring holds it (see `command`)
ACTIONS = {
    "list": """the presets and what each plays

    Examples:
        chinese-poker rules list
    """,
    "show": """every field of a preset or rule set file, as TOML

    Examples:
        chinese-poker rules show maceplay
        chinese-poker rules show house.toml --json
    """,
    "diff": """the fields where two rule sets differ

    Examples:
        chinese-poker rules diff pokerclub_south pokerclub_north
    """,
    "new": """a rule set to edit, as TOML on standard output (or --out)

    --set FIELD=VALUE changes one field on the way (repeat it for more): FIELD is the path
    users see (bonus.middle.quads, scoop.amount, naturals.values.dragon, surrender), VALUE a
    JSON value (12, true, null, "text"; bare words are text).

    Examples:
        chinese-poker rules new --from pokerclub_south --name 'our club' > house.toml
        chinese-poker rules new --from maceplay --set bonus.middle.quads=12 > house.toml
    """,
}


def register(sub: Any, shared: Shared) -> None:
    p = command(sub, __name__, __doc__, [])
    rules_sub = p.add_subparsers(dest="rules_command", required=True, metavar="ACTION")
    listed = [shared.common, shared.as_json]
    command(rules_sub, "list", ACTIONS["list"], listed)
    q = command(rules_sub, "show", ACTIONS["show"], listed)
    q.add_argument("name", metavar="NAME", help="preset name or rule set file")
    q = command(rules_sub, "diff", ACTIONS["diff"], listed)
    q.add_argument("x", metavar="X", help="preset name or rule set file")
    q.add_argument("y", metavar="Y", help="preset name or rule set file")
    q = command(rules_sub, "new", ACTIONS["new"], [shared.common])
    q.add_argument("--from", dest="base", default=_core.DEFAULT_PRESET, help="preset or file")
    q.add_argument("--name", default="house", help="the new rule set's name (default house)")
    q.add_argument("--out", default=None, help="write this .toml file instead")
    q.add_argument(
        "--set",
        dest="changes",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="change one field (bonus.middle.quads=12); repeat for more",
    )
    p.set_defaults(run=run)


def _changed(data: dict[str, Any], change: str) -> None:
    """Applies one ``--set FIELD=VALUE`` to a rule set's data (the core checks the result)."""
    path, sep, text = change.partition("=")
    keys = path.strip().split(".")
    if not sep or not all(keys):
        fail("--set", f"expected FIELD=VALUE (bonus.middle.quads=12), got {change!r}")
    try:
        value = json.loads(text)
    except ValueError:
        value = text  # a bare word: text (wheel=second)
    node = data
    for key in keys[:-1]:
        child = node.get(key)
        if child is None:
            child = node[key] = {}
        if not isinstance(child, dict):
            fail("--set", f"{path!r}: {key!r} is not a table of fields")
        node = child
    node[keys[-1]] = value


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


def run(args: argparse.Namespace) -> None:
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
    with blame("--name"):
        house = base.replace(name=args.name)
    if args.changes:
        data = house.to_dict()
        for change in args.changes:
            _changed(data, change)
        with blame("--set"):
            house = RuleSet.from_dict(data)
    text = (
        f"# {args.name}: a rule set based on {base.name}. Change what your house does\n"
        f"# differently; every field, its default and bounds: {docs_url('rules/')}\n"
        "# Use it with --rules FILE.toml, or RuleSet.from_toml(text) in Python; train its\n"
        "# strategy tables once with: chinese-poker tables train --rules FILE.toml --install\n"
        + house.to_toml()
    )
    if args.out is None:
        print(text, end="")
        return
    path = check_out_file("--out", args.out, (".toml",))
    path.write_text(text, encoding="utf-8")
    out(f"wrote {path}")
