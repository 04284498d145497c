"""Plots of simulations and duels (``pip install 'chinese-poker[plot]'`` for matplotlib).

    >>> import chinese_poker as cp
    >>> from chinese_poker import plots
    >>> run = cp.simulate(500, players=4, rules="maceplay", progress=False)
    >>> fig = plots.report(run)                    # three panels, below
    >>> plots.save(fig, "run.png")                 # doctest: +SKIP

Each plot function draws on ``ax`` (a matplotlib ``Axes``) or on a new figure, and returns the
``Axes``:

- [`points_distribution()`][chinese_poker.plots.points_distribution]: how many points a seat wins or
  loses per round, per seat;
- [`value_by_category()`][chinese_poker.plots.value_by_category]: mean points per round by the
  category (pair, flush, ...) of each
  row, front, middle and back: what holding that row was worth;
- [`calibration()`][chinese_poker.plots.calibration]: the policy's own estimate (``value``) against
  the points it then won,
  by decile of the estimate; on the diagonal is well calibrated;
- [`compare_rules()`][chinese_poker.plots.compare_rules]: the payoffs of the same deals under two
  rule sets (two simulations);
- [`duel_edges()`][chinese_poker.plots.duel_edges]: a duel's running edge with its 95% interval as
  the deals add up.

Figures are built with ``matplotlib.figure.Figure`` (no pyplot, so no GUI and no global
state): saving uses the Agg renderer whatever the default backend, which works on a server. In
a notebook, a figure or axes returned here and left last in a cell displays as a PNG, with no
``%matplotlib`` magic. A simulation written to a simulation directory (``out=``) is read back
from its parts (needs pyarrow).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from . import _core, _optional
from ._args import arg_error, whole
from ._args import path as _path
from .exceptions import InvalidArgumentError, InvalidTypeError

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure

    from .duels import DuelResult
    from .simulate import Simulation

__all__ = [
    "MISSING_MATPLOTLIB",
    "calibration",
    "compare_rules",
    "duel_edges",
    "have_matplotlib",
    "points_distribution",
    "report",
    "save",
    "value_by_category",
]

MISSING_MATPLOTLIB = _optional.message("matplotlib", "plotting")

_DPI = 110  # of saved and displayed figures
_ROW_NAMES = _core.ROW_NAMES
# the `status` column's code of a hand played in rows (not fouled, declared, ...)
_PLAYED = _core.STATUS_NAMES.index("played")


def have_matplotlib() -> bool:
    """Whether matplotlib can be imported (the ``plot`` extra is installed)."""
    return _optional.available("matplotlib")


def _short(policy: str) -> str:
    # a policy's repr without its arguments: legends stay readable
    return policy.split("(", 1)[0]


def _png(self: Any) -> bytes:
    # what Jupyter shows for a figure or axes this module made: the whole figure as a PNG
    buffer = io.BytesIO()
    getattr(self, "figure", self).savefig(buffer, format="png", dpi=_DPI)
    return buffer.getvalue()


@cache
def _shown_classes() -> tuple[type[Figure], type[Axes]]:
    """matplotlib's Figure and Axes with ``_repr_png_``: a plot left last in a notebook cell
    displays as its picture with no ``%matplotlib`` magic and no pyplot."""
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    body = {"_repr_png_": _png, "__module__": __name__}
    return type("Figure", (Figure,), body), type("Axes", (Axes,), body)


def _figure(ncols: int = 1, width: float = 6.4) -> tuple[Figure, list[Axes]]:
    _optional.require("matplotlib", "plotting")
    figure_class, axes_class = _shown_classes()
    fig = figure_class(figsize=(width * ncols, 4.4), layout="constrained")
    axes = fig.subplots(1, ncols, squeeze=False, subplot_kw={"axes_class": axes_class})[0]
    return fig, list(axes)


def _axes(ax: Axes | None) -> Axes:
    return _figure()[1][0] if ax is None else ax


def _labelled(ax: Axes, x: str, y: str, title: str, caption: str | None = None) -> Axes:
    """``ax`` with its axis labels, title (and a caption under it saying what is measured
    on what) and legend: how every plot here ends."""
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(title if caption is None else f"{title}\n{caption}", fontsize="medium")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize="small")
    return ax


def _policy_seats(sim: Simulation) -> dict[str, list[int]]:
    """Each distinct policy of a run and the seats that play it, in seat order."""
    seats: dict[str, list[int]] = {}
    for s, p in enumerate(sim.policies):
        seats.setdefault(p, []).append(s)
    return seats


def _columns(sim: Simulation, names: Sequence[str]) -> dict[str, npt.NDArray[Any]]:
    """The columns a plot needs, from memory or read back from the run's Parquet file."""
    if sim.columns is not None:
        return {n: sim.columns[n] for n in names}
    if sim.parquet is None:
        raise InvalidArgumentError("this simulation has neither rows nor a Parquet file")
    _optional.require("pyarrow", "plotting a simulation stored in Parquet")
    from ._dataset import read_columns

    # a file, or the parts a simulation directory's manifest lists
    return read_columns(sim.parquet, names)


def _need_rows(sim: object, name: str = "sim") -> None:
    """Refuses anything but a [`Simulation`][chinese_poker.Simulation] with rounds, naming the
    argument."""
    from .simulate import Simulation

    if not isinstance(sim, Simulation):
        raise arg_error(InvalidTypeError, name, f"expected a Simulation, got {type(sim).__name__}")
    if sim.rounds == 0:
        raise arg_error(InvalidArgumentError, name, "the simulation has no rounds to plot")


def points_distribution(sim: Simulation, ax: Axes | None = None) -> Axes:
    """Histogram of points per round, one outline per seat (labelled with its policy).

    Args:
        sim: A simulation with its rows (not one written to ``out`` and not read back).
        ax: The axes to draw on (``None``: new ones, in a new figure).

    Returns:
        The axes drawn on; left last in a notebook cell, it shows as a picture.

    Raises:
        MissingDependencyError: matplotlib is not installed.
    """
    _need_rows(sim)
    ax = _axes(ax)
    cols = _columns(sim, ["points"])
    points = cols["points"].reshape(-1, sim.players)
    low, high = np.percentile(points, [0.5, 99.5])
    # whole-point bins where they are few enough to read, otherwise 80 bins
    bins: Any = np.arange(np.floor(low) - 0.5, np.ceil(high) + 1.5) if high - low <= 80 else 80
    for s in range(sim.players):
        ax.hist(
            points[:, s],
            bins=bins,
            range=None if not isinstance(bins, int) else (low, high),
            histtype="step",
            linewidth=1.4,
            label=f"P{s} {_short(sim.policies[s])}  mean {points[:, s].mean():+.2f}",
        )
    ax.axvline(0, color="grey", linewidth=0.8)
    return _labelled(
        ax, "points per round", "rounds", f"Points per round ({sim.rules}, {sim.rounds:,} rounds)"
    )


def _categories(raw: npt.NDArray[Any]) -> npt.NDArray[np.intp]:
    # HandRank decodes the layout (one definition, in the core); a run has few distinct ranks
    unique, inverse = np.unique(raw, return_inverse=True)
    cats = np.array([int(_core.HandRank(int(r)).category) for r in unique], dtype=np.intp)
    return cats[inverse.reshape(-1)]


def value_by_category(sim: Simulation, ax: Axes | None = None) -> Axes:
    """Mean points per round by the category of each row (hands played in rows only). One policy:
    bars per row. Several: one line per row and policy (line style by policy), since pooling
    seats that play differently would mix their strategies.

    Args:
        sim: A simulation with its rows.
        ax: The axes to draw on (``None``: new ones, in a new figure).

    Returns:
        The axes drawn on; left last in a notebook cell, it shows as a picture.

    Raises:
        MissingDependencyError: matplotlib is not installed.
    """
    from ._core import Category

    _need_rows(sim)
    ax = _axes(ax)
    cols = _columns(sim, ["points", "ranks", "status", "seat"])
    played = cols["status"] == _PLAYED
    names = [c.label for c in Category]
    groups = _policy_seats(sim)
    styles = ("-", "--", ":", "-.")
    width = 0.8 / len(_ROW_NAMES)
    for g, (policy, seats) in enumerate(groups.items()):
        mask = played & np.isin(cols["seat"], seats)
        points = cols["points"][mask].astype(np.float64)
        ranks = cols["ranks"][mask]
        for r, row in enumerate(_ROW_NAMES):
            cats = _categories(ranks[:, r])
            counts = np.bincount(cats, minlength=len(names))
            sums = np.bincount(cats, weights=points, minlength=len(names))
            means = np.divide(sums, counts, out=np.full(len(names), np.nan), where=counts > 0)
            if len(groups) == 1:
                x = np.arange(len(names)) + (r - (len(_ROW_NAMES) - 1) / 2) * width
                ax.bar(x, means, width=width, label=row)
            else:
                ax.plot(
                    np.arange(len(names)),
                    means,
                    marker="o",
                    linestyle=styles[g % len(styles)],
                    color=f"C{r}",
                    label=f"{row}, {_short(policy)}",
                )
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(np.arange(len(names)), names, rotation=35, ha="right")
    who = "per policy" if len(groups) > 1 else _short(next(iter(groups)))
    return _labelled(
        ax,
        "category of the row",
        "mean points per round",
        "Expected value by row category",
        f"{sim.rules}, {sim.players} players, {sim.rounds:,} rounds; {who}",
    )


def calibration(sim: Simulation, ax: Axes | None = None, bins: int = 10) -> Axes:
    """Mean predicted ``value`` against mean realised ``points``, by quantiles of the prediction,
    per policy that predicts (greedy and random do not). A policy's prediction is its value
    against opponents who play as it does: where the others play differently (a mixed run) the
    points fall off the diagonal by design, and the caption says so.

    Args:
        sim: A simulation with its rows.
        ax: The axes to draw on (``None``: new ones, in a new figure).
        bins: How many quantiles of the prediction.

    Returns:
        The axes drawn on; left last in a notebook cell, it shows as a picture.

    Raises:
        MissingDependencyError: matplotlib is not installed.
    """
    _need_rows(sim)
    bins = whole("bins", bins, 1, 1000)
    ax = _axes(ax)
    cols = _columns(sim, ["value", "points", "seat"])
    value, points = cols["value"], cols["points"].astype(np.float64)
    groups = _policy_seats(sim)
    drawn = False
    lo, hi = np.inf, -np.inf
    for policy, seats in groups.items():
        mask = np.isin(cols["seat"], seats) & np.isfinite(value)
        if not mask.any():
            continue
        v, p = value[mask], points[mask]
        edges = np.unique(np.quantile(v, np.linspace(0, 1, bins + 1)))
        which = np.clip(np.searchsorted(edges, v, side="right") - 1, 0, max(len(edges) - 2, 0))
        n = np.bincount(which)
        keep = n > 0
        pred = (np.bincount(which, weights=v) / np.maximum(n, 1))[keep]
        real = (np.bincount(which, weights=p) / np.maximum(n, 1))[keep]
        gap = float(np.sum(p) - np.sum(v)) / len(v)
        ax.plot(pred, real, marker="o", label=f"{_short(policy)} (realised − predicted {gap:+.2f})")
        lo, hi = min(lo, pred.min(), real.min()), max(hi, pred.max(), real.max())
        drawn = True
    if drawn:
        ax.plot([lo, hi], [lo, hi], color="grey", linestyle="--", linewidth=0.8, label="ideal")
    else:
        ax.text(
            0.5,
            0.5,
            "no policy here predicts its value\n(greedy, random)",
            ha="center",
            va="center",
            transform=ax.transAxes,
        )
    mixed = len(groups) > 1
    caption = f"{sim.rules}, {sim.players} players, {sim.rounds:,} rounds" + (
        "\nmixed table: values assume opponents who play alike" if mixed else ""
    )
    return _labelled(
        ax,
        "predicted points (policy's value, by decile)"
        if bins == 10
        else f"predicted points (policy's value, {bins} bins)",
        "realised points",
        "Calibration",
        caption,
    )


def compare_rules(a: Simulation, b: Simulation, ax: Axes | None = None) -> Axes:
    """The points per round and seat under two rule sets (typically the same deals and policies),
    overlaid, with each one's mean absolute payoff and spread.

    Args:
        a: One simulation, with its rows.
        b: The other.
        ax: The axes to draw on (``None``: new ones, in a new figure).

    Returns:
        The axes drawn on; left last in a notebook cell, it shows as a picture.

    Raises:
        MissingDependencyError: matplotlib is not installed.
    """
    _need_rows(a, "a")
    _need_rows(b, "b")
    ax = _axes(ax)
    pa = _columns(a, ["points"])["points"].astype(np.float64)
    pb = _columns(b, ["points"])["points"].astype(np.float64)
    low, high = np.percentile(np.concatenate([pa, pb]), [0.5, 99.5])
    bins: Any = np.arange(np.floor(low) - 0.5, np.ceil(high) + 1.5) if high - low <= 80 else 80
    for sim, pts in ((a, pa), (b, pb)):
        ax.hist(
            pts,
            bins=bins,
            range=None if not isinstance(bins, int) else (low, high),
            histtype="step",
            linewidth=1.4,
            density=True,
            label=f"{sim.rules}: mean |points| {np.abs(pts).mean():.2f}, sd {pts.std():.2f}",
        )
    return _labelled(
        ax, "points per round and seat", "share of rounds", f"Payoffs: {a.rules} vs {b.rules}"
    )


def duel_edges(result: DuelResult, ax: Axes | None = None) -> Axes:
    """A duel's running edge (A over B, points per hand) with its 95% interval.

    Args:
        result: What [`duel()`][chinese_poker.duel] returned.
        ax: The axes to draw on (``None``: new ones, in a new figure).

    Returns:
        The axes drawn on; left last in a notebook cell, it shows as a picture.

    Raises:
        MissingDependencyError: matplotlib is not installed.
    """
    from .duels import DuelResult

    if not isinstance(result, DuelResult):
        raise arg_error(
            InvalidTypeError, "result", f"expected a DuelResult, got {type(result).__name__}"
        )
    edges = np.asarray(result.edges, dtype=np.float64)
    if len(edges) == 0:
        raise arg_error(InvalidArgumentError, "result", "the duel has no deals to plot")
    ax = _axes(ax)
    n = np.arange(1, len(edges) + 1)
    mean = np.cumsum(edges) / n
    var = np.maximum(np.cumsum(edges * edges) / n - mean * mean, 0.0) * n / np.maximum(n - 1, 1)
    # one deal says nothing about the spread: no interval there (not a zero-width one)
    half = np.where(n > 1, _core.INTERVAL_Z * np.sqrt(var / n), np.nan)
    ax.plot(n, mean, label=f"edge of {_short(result.a)} over {_short(result.b)}")
    ax.fill_between(n, mean - half, mean + half, alpha=0.25, label="95% interval")
    ax.axhline(0, color="grey", linewidth=0.8)
    return _labelled(
        ax,
        "deals",
        "points per hand",
        f"Duel ({result.rules}, {result.players} players): {result.edge:+.3f}",
    )


def report(sim: Simulation, compare: Simulation | None = None) -> Figure:
    """One figure: points per round, value by row category and calibration, plus the payoffs
    against another simulation.

    Args:
        sim: A simulation with its rows.
        compare: Another simulation to compare payoffs with (e.g. the same deals under other
            rules), or ``None``.

    Returns:
        The figure.

    Raises:
        MissingDependencyError: matplotlib is not installed.
    """
    _need_rows(sim)
    if compare is not None:
        _need_rows(compare, "compare")
    fig, axes = _figure(4 if compare is not None else 3, width=5.6)
    points_distribution(sim, axes[0])
    value_by_category(sim, axes[1])
    calibration(sim, axes[2])
    if compare is not None:
        compare_rules(sim, compare, axes[3])
    return fig


SAVE_SUFFIXES = (".png", ".svg", ".pdf")
"""The file types [`save()`][chinese_poker.plots.save] writes, by suffix."""


def save(fig: Figure | SubFigure | Axes, path: str | Path) -> Path:
    """Writes a figure with the Agg renderer for raster output. The path is checked first.

    Args:
        fig: A figure, or the axes a plot function returned (its figure is written).
        path: Where to write; the format is the suffix's: ``.png``, ``.svg`` or ``.pdf``.

    Returns:
        The path written.

    Raises:
        InvalidArgumentError: Another suffix, a folder that does not exist, or a directory,
            naming ``path``.
        MissingDependencyError: matplotlib is not installed.
    """
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure

    if not isinstance(fig, Figure | SubFigure | Axes):
        raise arg_error(
            InvalidTypeError, "fig", f"expected a Figure or Axes, got {type(fig).__name__}"
        )
    target = _path("path", path)
    if target.is_dir():
        raise arg_error(InvalidArgumentError, "path", f"{str(target)!r} is a directory")
    if target.suffix.lower() not in SAVE_SUFFIXES:
        raise arg_error(
            InvalidArgumentError,
            "path",
            f"expected a file name ending {', '.join(SAVE_SUFFIXES)}, got {str(target)!r}",
        )
    folder = target.parent
    if not folder.is_dir():
        raise arg_error(InvalidArgumentError, "path", f"folder {str(folder)!r} does not exist")
    root: Any = fig
    while not isinstance(root, Figure):
        root = root.figure
    root.savefig(target, dpi=_DPI)
    return target
