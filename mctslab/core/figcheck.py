"""Figure hygiene, checked on the figure object before it is saved (:meth:`Run.figure`).

:func:`figure_problems` lists what a reader would trip over:

- an axes with data but no x or y label (image axes without ticks excepted);
- a log or symlog axis whose label does not say so ("log" in the label);
- an image (``imshow``) without a colour bar in the figure;
- two texts that overlap: titles, the suptitle, axis labels and legends (tick labels are left
  to matplotlib's own layout).

The manifest records the list for every figure (``checks``); ``tests/notebooks`` requires it to
be empty for the notebooks that opt in.
"""

from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg

__all__ = ["figure_problems"]


def _colorbar_axes(fig) -> set:
    bars = set()
    for ax in fig.axes:
        for image in ax.images + ax.collections:
            bar = getattr(image, "colorbar", None)
            if bar is not None:
                bars.add(bar.ax)
    return bars


def figure_problems(fig) -> list[str]:
    problems = []
    bars = _colorbar_axes(fig)
    has_bar = bool(bars)
    for number, ax in enumerate(fig.axes):
        if ax in bars or not ax.get_visible():
            continue
        name = ax.get_title() or f"axes {number}"
        has_data = bool(ax.lines or ax.collections or ax.patches or ax.images)
        is_image = bool(ax.images)
        if has_data and not is_image:
            for axis, label in (("x", ax.get_xlabel()), ("y", ax.get_ylabel())):
                ticks = (ax.get_xticks() if axis == "x" else ax.get_yticks())
                shared = (ax.get_shared_x_axes() if axis == "x" else ax.get_shared_y_axes())
                # a twin axes shares the other's labelled axis
                labelled_twin = any((other.get_xlabel() if axis == "x" else other.get_ylabel())
                                    for other in shared.get_siblings(ax) if other is not ax)
                if not label and len(ticks) and not labelled_twin:
                    problems.append(f"{name}: no {axis} label")
        for axis, scale, label in (("x", ax.get_xscale(), ax.get_xlabel()),
                                   ("y", ax.get_yscale(), ax.get_ylabel())):
            if scale in ("log", "symlog") and scale not in label.lower() and "log" not in label.lower():
                problems.append(f"{name}: {axis} axis is {scale} and its label does not say so")
        if is_image and not has_bar:
            problems.append(f"{name}: an image without a colour bar")
    problems += _overlaps(fig)
    return problems


def _overlaps(fig) -> list[str]:
    if not hasattr(fig.canvas, "get_renderer"):  # a closed figure: draw it with Agg
        FigureCanvasAgg(fig)
    fig.canvas.draw()  # text extents need a layout
    renderer = fig.canvas.get_renderer()
    texts = []
    if getattr(fig, "_suptitle", None) and fig._suptitle.get_text():
        texts.append(("suptitle", fig._suptitle))
    for number, ax in enumerate(fig.axes):
        if not ax.get_visible():
            continue
        for kind, text in (("title", ax.title), ("left title", ax._left_title),
                           ("right title", ax._right_title), ("x label", ax.xaxis.label),
                           ("y label", ax.yaxis.label)):
            if text.get_text() and text.get_visible():
                texts.append((f"axes {number} {kind}", text))
    boxes = [(name, text.get_window_extent(renderer)) for name, text in texts]
    legends = [(f"axes {n} legend", ax.get_legend().get_window_extent(renderer))
               for n, ax in enumerate(fig.axes) if ax.get_legend() is not None]
    problems = []
    everything = boxes + legends
    for i, (a_name, a) in enumerate(everything):
        for b_name, b in everything[i + 1:]:
            if a.overlaps(b) and a.width > 0 and b.width > 0:
                problems.append(f"{a_name} overlaps {b_name}")
    return problems
