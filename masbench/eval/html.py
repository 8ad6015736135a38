"""A self-contained HTML report: summary tables, SVG plots (SR vs time vs tokens) and a trajectory viewer
with each step's screenshot, action and shortcut call. Screenshots are embedded as small JPEG thumbnails
so the file opens anywhere without the run directory."""

from __future__ import annotations

import base64
import html
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from masbench.trajectory import StepRecord

from .metrics import Metrics, Summary
from .metrics import __doc__ as METRICS_DOC
from .records import EpisodeResult, RunConfig
from .table import COLUMNS

if TYPE_CHECKING:
    from masbench.tasks import Task

THUMB = (216, 480)
CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#202124;background:#fafafa}
h1{font-size:26px}h2{font-size:20px;margin-top:32px}table{border-collapse:collapse;margin:8px 0;background:#fff}
th,td{border:1px solid #dadce0;padding:4px 10px;text-align:right;font-size:13px}th{background:#f1f3f4}
td:first-child,th:first-child{text-align:left}.ok{color:#188038;font-weight:600}.bad{color:#d93025;font-weight:600}
details{background:#fff;border:1px solid #dadce0;border-radius:8px;margin:6px 0;padding:6px 12px}
summary{cursor:pointer;font-size:14px}.steps{display:flex;flex-wrap:wrap;gap:10px;margin-top:8px}
.step{width:230px;font-size:12px;border:1px solid #e0e0e0;border-radius:6px;padding:6px;background:#fcfcfc}
.step img{width:216px;border:1px solid #ccc;border-radius:4px}.step pre{white-space:pre-wrap;word-break:break-all;margin:4px 0}
.sc{background:#e8f0fe}.inv{background:#fce8e6}.defs{font-size:12px;color:#5f6368;white-space:pre-wrap}
"""


def _thumb(path: Path) -> str | None:
    if not path.exists():
        return None
    with Image.open(path) as img:
        img = img.convert("RGB")
        img.thumbnail(THUMB)
        buf = io.BytesIO()
        img.save(buf, format="JPEG", quality=60)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode()


def _fmt(v: float | None, digits: int = 3) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _metrics_table(rows: list[tuple[str, Metrics]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h, _, _ in COLUMNS)
    body = "".join(
        f"<tr><td>{html.escape(name)}</td><td>{m.episodes}</td>"
        + "".join(f"<td>{_fmt(getattr(m, a), d)}</td>" for _, a, d in COLUMNS)
        + "</tr>"
        for name, m in rows
    )
    return f"<table><tr><th>Group</th><th>N</th>{head}</tr>{body}</table>"


def _scatter(
    points: list[tuple[str, float, float, float]], xlabel: str, ylabel: str, labels: bool = True
) -> str:
    """SVG scatter: (label, x, y, size) with size scaled to the largest; without `labels` the names
    are only tooltips (many points would overlap)."""
    if not points:
        return ""
    w, h, pad = 560, 320, 48
    xmax = max(p[1] for p in points) or 1.0
    smax = max(p[3] for p in points) or 1.0
    parts = [
        f'<svg width="{w}" height="{h}" xmlns="http://www.w3.org/2000/svg" style="background:#fff;border:1px solid #dadce0">'
    ]
    parts.append(
        f'<line x1="{pad}" y1="{h - pad}" x2="{w - 10}" y2="{h - pad}" stroke="#5f6368"/><line x1="{pad}" y1="10" x2="{pad}" y2="{h - pad}" stroke="#5f6368"/>'
    )
    parts.append(
        f'<text x="{w / 2}" y="{h - 10}" font-size="12" text-anchor="middle">{html.escape(xlabel)}</text>'
    )
    parts.append(
        f'<text x="14" y="{h / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 14 {h / 2})">{html.escape(ylabel)}</text>'
    )
    for frac in (0, 0.5, 1):
        y = h - pad - frac * (h - pad - 20)
        parts.append(f'<text x="{pad - 6}" y="{y + 4}" font-size="10" text-anchor="end">{frac:.1f}</text>')
        x = pad + frac * (w - pad - 30)
        parts.append(
            f'<text x="{x}" y="{h - pad + 14}" font-size="10" text-anchor="middle">{xmax * frac:.1f}</text>'
        )
    for label, x, y, size in points:
        cx = pad + (x / xmax) * (w - pad - 30)
        cy = h - pad - y * (h - pad - 20)
        r = 5 + 15 * (size / smax)
        parts.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="#1a73e8" fill-opacity="0.35" stroke="#1a73e8"><title>{html.escape(label)}</title></circle>'
        )
        parts.append(
            f'<text x="{cx:.1f}" y="{cy - r - 3:.1f}" font-size="10" text-anchor="middle">{html.escape(label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _steps(run_dir: Path, result: EpisodeResult) -> str:
    path = run_dir / result.trajectory / "steps.jsonl"
    if not path.exists():
        error = run_dir / result.trajectory / "error.txt"
        return f"<pre>{html.escape(error.read_text() if error.exists() else result.error or 'no trajectory')}</pre>"
    cards = []
    for line in path.read_text().splitlines():
        step = StepRecord.model_validate_json(line)
        img = _thumb(run_dir / result.trajectory / step.screenshot) if step.screenshot else None
        css = "sc" if step.kind == "shortcut" else "inv" if step.kind == "invalid" else ""
        action = json.dumps(step.action, ensure_ascii=False) if step.action else "(unusable model output)"
        extra = ""
        if step.shortcut:
            sc = step.shortcut
            extra += f"<div>shortcut {'<span class=ok>ok</span>' if sc.get('success') else '<span class=bad>failed</span>'}: {html.escape(str(sc.get('reason') or ''))}</div>"
            extra += "".join(f"<pre>$ {html.escape(c)}</pre>" for c in sc.get("commands", [])[:4])
        if step.error:
            extra += f"<div class=bad>{html.escape(step.error)}</div>"
        if step.model_output:
            extra += f"<details><summary>model output</summary><pre>{html.escape(step.model_output)}</pre></details>"
        tokens = f" · {step.usage.total_tokens} tok" if step.usage.total_tokens else ""
        cards.append(
            f'<div class="step {css}"><b>#{step.index}</b> {html.escape(step.kind)} · {step.wall_s:.2f}s{tokens}'
            + (f'<br><img src="{img}" loading="lazy">' if img else "")
            + f"<pre>{html.escape(action)}</pre>{extra}</div>"
        )
    return '<div class="steps">' + "".join(cards) + "</div>"


def write_report(
    run_dir: Path,
    config: RunConfig,
    results: list[EpisodeResult],
    tasks: list[Task],
    summary: Summary,
    out: Path | None = None,
) -> Path:
    out = out or run_dir / "report.html"
    by_id = {t.id: t for t in tasks}
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>masbench report: {html.escape(run_dir.name)}</title><style>{CSS}</style></head><body>"
    ]
    parts.append(
        f"<h1>masbench report — {html.escape(config.agent)}{' · ' + html.escape(config.model) if config.model else ''}</h1>"
    )
    parts.append(
        f"<p>tasks <b>{html.escape(config.tasks)}</b> · KB <b>{html.escape(config.kb)}</b> · devices {html.escape(', '.join(config.devices))} · repeats {config.repeats} · {len(results)} episodes · created {config.created_at:%Y-%m-%d %H:%M}</p>"
    )
    if summary.overall:
        rows = [("All", summary.overall), *[(k, m) for k, m in summary.groups.get("kind", {}).items()]]
        parts.append("<h2>Summary</h2>" + _metrics_table(rows))
        for split in ("level", "app"):
            parts.append(f"<h2>By {split}</h2>" + _metrics_table(list(summary.groups.get(split, {}).items())))
        apps = summary.groups.get("app", {})
        parts.append(
            "<h2>SR vs time vs tokens</h2><p>One bubble per app: x = MET (s), y = SR, size = MToC (k tokens).</p>"
        )
        parts.append(_scatter([(k, m.MET, m.SR, m.MToC or 0.1) for k, m in apps.items()], "MET (s)", "SR"))
        parts.append(
            "<p>One bubble per episode: x = wall time (s), y = success, size = steps (hover for the task).</p>"
        )
        parts.append(
            _scatter(
                [(r.task_id, r.wall_s, 1.0 if r.success else 0.0, r.steps) for r in results],
                "wall time (s)",
                "success",
                labels=False,
            )
        )
    parts.append(
        f"<details><summary>Metric definitions</summary><div class=defs>{html.escape(METRICS_DOC or '')}</div></details>"
    )
    parts.append("<h2>Trajectories</h2>")
    for r in sorted(results, key=lambda r: (r.task_id, r.repeat)):
        task = by_id.get(r.task_id)
        status = (
            "<span class=ok>success</span>"
            if r.success
            else f"<span class=bad>{html.escape(r.end_reason)}</span>"
        )
        head = f"{html.escape(r.task_id)}{f' r{r.repeat}' if r.repeat else ''} — {status} · {r.steps}/{r.optimal_steps} steps · {r.shortcut_calls} shortcuts · {r.wall_s:.1f}s"
        instruction = f"<p><i>{html.escape(task.instruction)}</i></p>" if task else ""
        details = "".join(f"<div>{html.escape(d)}</div>" for d in r.check_details)
        parts.append(
            f"<details><summary>{head}</summary>{instruction}<div>{details}</div>{_steps(run_dir, r)}</details>"
        )
    parts.append("</body></html>")
    out.write_text("".join(parts), encoding="utf-8")
    return out
