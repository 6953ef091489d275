"""The report's section on a tune (a folder ``arena tune`` wrote): each parameter's path
with its perturbation, the final values and the confirmation league's measure."""

from __future__ import annotations

import tomllib
from html import escape
from pathlib import Path

from arena.show.html import charts
from arena.tune.journal import TUNED, Step, Trial, read_steps


def tuning_section(folder: Path) -> str:
    """The section's body, or "" when ``folder`` holds no tune."""
    entries = read_steps(folder)
    if not entries:
        return ""
    parts: list[str] = []
    steps = [e for e in entries if isinstance(e, Step)]
    trials = [e for e in entries if isinstance(e, Trial)]
    if steps:
        names = list(steps[0].plus)
        parts.append(
            f"<p>{len(steps):,} SPSA iterations. Each plot: θ after each step (the line) and "
            "the values θ+ and θ- played, θ ± c<sub>k</sub> (the thin lines).</p>"
        )
        for i, name in enumerate(names):
            path = [(s.k, s.after[i], s.c[i]) for s in steps]
            parts.append(f"<figure>{charts.tune_path(name, path)}</figure>")
    if trials:
        best = max(trials, key=lambda t: t.score)
        parts.append(
            f"<p>{len(trials):,} Optuna trials against the start values; the best scored "
            f"{best.score:.3f} (trial {best.k}).</p>"
        )
    tuned = folder / TUNED
    if tuned.is_file():
        data = tomllib.loads(tuned.read_text(encoding="utf-8"))
        rows = "".join(
            f"<tr><td>{escape(str(k))}</td><td>{escape(repr(v))}</td></tr>"
            for k, v in data.get("params", {}).items()
        )
        parts.append(f"<table><tr><th>parameter</th><th>tuned</th></tr>{rows}</table>")
        confirm = data.get("confirmation")
        if isinstance(confirm, dict):
            parts.append(
                f"<p>Confirmation on fresh deals, tuned against start values: "
                f"{confirm['elo']:+.1f} Elo (95 % interval {confirm['elo_low']:+.1f} .. "
                f"{confirm['elo_high']:+.1f}), LOS {confirm['los'] * 100:.1f} %, "
                f"over {confirm['games']} games.</p>"
            )
    return "".join(parts)
