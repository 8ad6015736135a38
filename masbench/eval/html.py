"""A self-contained HTML report: summary tables, SVG plots (SR vs time vs tokens) and a trajectory viewer
with each step's screenshot, action and shortcut call. Screenshots are embedded as small JPEG thumbnails
so the file opens anywhere without the run directory."""

from __future__ import annotations

import base64
import html
import io
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from masbench.trajectory import StepRecord, clip

from .diagnostics import FAILURE_CLASSES, FAILURE_DESCRIPTIONS, episode_anchor
from .metrics import Metrics, PaperRow, Summary, outcome_counts, paper_table2, task_matrix
from .metrics import __doc__ as METRICS_DOC
from .records import EpisodeResult, RunConfig
from .table import COLUMNS, KIND_ROWS, diagnostic_cells

if TYPE_CHECKING:
    from masbench.tasks import Task

THUMB = (216, 480)
# Size budget of one episode in the report: each reply and prompt shown up to REPORT_TEXT characters, and
# steps after EPISODE_BUDGET bytes of cards left out (named, with the steps.jsonl that holds them).
REPORT_TEXT = 8_000
EPISODE_BUDGET = 3_000_000
MARK = (234, 67, 53)  # the touch marker: a red that reads on white and on dark screens
CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#202124;background:#fafafa}
h1{font-size:26px}h2{font-size:20px;margin-top:32px}table{border-collapse:collapse;margin:8px 0;background:#fff}
th,td{border:1px solid #dadce0;padding:4px 10px;text-align:right;font-size:13px}th{background:#f1f3f4}
td:first-child,th:first-child{text-align:left}.ok{color:#188038;font-weight:600}.bad{color:#d93025;font-weight:600}
details{background:#fff;border:1px solid #dadce0;border-radius:8px;margin:6px 0;padding:6px 12px}
summary{cursor:pointer;font-size:14px}.steps{display:flex;flex-wrap:wrap;gap:10px;margin-top:8px}
.step{width:230px;font-size:12px;border:1px solid #e0e0e0;border-radius:6px;padding:6px;background:#fcfcfc}
.step img{width:216px;border:1px solid #ccc;border-radius:4px}.step pre{white-space:pre-wrap;word-break:break-all;margin:4px 0}
tr.ref td{color:#80868b;font-style:italic}.sc{background:#e8f0fe}.inv{background:#fce8e6}.target{color:#5f6368;font-style:italic}.defs{font-size:12px;color:#5f6368;white-space:pre-wrap}
"""


def _thumb(path: Path, touch: list[tuple[int, int]] | None = None) -> str | None:
    """The screenshot as an embedded JPEG, with where the step touched marked: a ring for a tap, an arrow
    for a swipe (drawn at full size, so the mark scales with the picture)."""
    if not path.exists():
        return None
    with Image.open(path) as img:
        img = img.convert("RGB")
        if touch:
            _mark(img, touch)
        img.thumbnail(THUMB)
        buf = io.BytesIO()
        img.save(buf, format="JPEG", quality=60)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode()


def _mark(img: Image.Image, touch: list[tuple[int, int]]) -> None:
    draw = ImageDraw.Draw(img)
    r = max(24, img.width // 16)
    width = max(6, img.width // 90)
    x, y = touch[0]
    draw.ellipse((x - r, y - r, x + r, y + r), outline=MARK, width=width)
    draw.ellipse((x - width, y - width, x + width, y + width), fill=MARK)
    if len(touch) > 1:  # a swipe: a line to the end point and an arrow head there
        x2, y2 = touch[-1]
        draw.line((x, y, x2, y2), fill=MARK, width=width)
        angle = math.atan2(y2 - y, x2 - x)
        head = [
            (x2 - r * math.cos(angle + s), y2 - r * math.sin(angle + s)) for s in (math.pi / 6, -math.pi / 6)
        ]
        draw.polygon([(x2, y2), *head], fill=MARK)


def _fmt(v: float | None, digits: int = 3) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _metrics_table(rows: list[tuple[str, Metrics]], reference: list[tuple[str, int, PaperRow]] = ()) -> str:
    """Our rows, then the paper's reference rows (name, its task count, figures) in grey: the paper reports
    SR, MSRS, MET, MToC, MSC and GSAR only."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h, _, _ in COLUMNS)
    body = "".join(
        f"<tr><td>{html.escape(name)}</td><td>{m.episodes}</td>"
        + "".join(f"<td>{_fmt(getattr(m, a), d)}</td>" for _, a, d in COLUMNS)
        + "</tr>"
        for name, m in rows
    )
    body += "".join(
        f"<tr class=ref><td>{html.escape(name)}</td><td>{tasks}</td>"
        + "".join(f"<td>{_fmt(getattr(row, a, None), d)}</td>" for _, a, d in COLUMNS)
        + "</tr>"
        for name, tasks, row in reference
    )
    return f"<table><tr><th>Group</th><th>N</th>{head}</tr>{body}</table>"


def _paper_rows(kind: str, agent: str) -> list[tuple[str, int, PaperRow]]:
    """The paper's Table 2 rows for a task kind, the run's own agent first."""
    table = paper_table2().get(kind)
    if table is None:
        return []
    names = sorted(table.rows, key=lambda name: name != agent)
    return [(f"paper: {name} ({kind})", table.tasks, table.rows[name]) for name in names]


def _outcomes(results: list[EpisodeResult]) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(outcome)}</td><td>{n}</td></tr>"
        for outcome, n in outcome_counts(results).items()
    )
    return f"<table><tr><th>Outcome</th><th>Episodes</th></tr>{rows}</table>"


def matrix_html(runs: list[tuple[str, list[EpisodeResult]]]) -> str:
    head = "".join(f"<th>{html.escape(name)}</th>" for name, _ in runs)
    body = "".join(
        f"<tr><td>{html.escape(task)}</td>"
        + "".join(f"<td class={'ok' if c == 'ok' else 'bad'}>{html.escape(c)}</td>" for c in cells)
        + "</tr>"
        for task, cells in task_matrix(runs)
    )
    return f"<table><tr><th>Task</th>{head}</tr>{body}</table>"


def _scatter(
    points: list[tuple[str, float, float, float]], xlabel: str, ylabel: str, labels: bool = True
) -> str:
    """SVG scatter: (label, x, y, size) with size scaled to the largest. With `labels` each bubble carries
    a number and a legend below names it (names beside bubbles overlap once there are many); without, the
    names are only tooltips."""
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
    for n, (label, x, y, size) in enumerate(points, 1):
        cx = pad + (x / xmax) * (w - pad - 30)
        cy = h - pad - y * (h - pad - 20)
        r = 5 + 15 * (size / smax)
        parts.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="#1a73e8" fill-opacity="0.35" stroke="#1a73e8"><title>{html.escape(label)}</title></circle>'
        )
        if labels:
            parts.append(
                f'<text x="{cx:.1f}" y="{cy + 4:.1f}" font-size="11" font-weight="600" text-anchor="middle">{n}</text>'
            )
    parts.append("</svg>")
    if labels:
        legend = " · ".join(f"<b>{n}</b> {html.escape(p[0])}" for n, p in enumerate(points, 1))
        parts.append(f"<p class=defs>{legend}</p>")
    return "".join(parts)


def _steps(run_dir: Path, result: EpisodeResult) -> str:
    path = run_dir / result.trajectory / "steps.jsonl"
    if not path.exists():
        error = run_dir / result.trajectory / "error.txt"
        return f"<pre>{html.escape(error.read_text() if error.exists() else result.error or 'no trajectory')}</pre>"
    cards, size = [], 0
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if size > EPISODE_BUDGET:
            cards.append(f"<div class=bad>steps from #{number - 1} on left out: this episode's part of the "
                         f"report is over {EPISODE_BUDGET // 1_000_000} MB; they are in {html.escape(str(path))}</div>")  # fmt: skip
            break
        try:
            step = StepRecord.model_validate_json(line)
        except ValueError:
            cards.append(f"<div class=bad>{html.escape(str(path))}:{number}: not a step, skipped</div>")
            continue
        img = _thumb(run_dir / result.trajectory / step.screenshot, step.touch) if step.screenshot else None
        css = "sc" if step.kind == "shortcut" else "inv" if step.kind == "invalid" else ""
        action = json.dumps(step.action, ensure_ascii=False) if step.action else "(unusable model output)"
        extra = f"<div class=target>on {html.escape(step.target)}</div>" if step.target else ""
        if step.shortcut:
            sc = step.shortcut
            extra += f"<div>shortcut {'<span class=ok>ok</span>' if sc.get('success') else '<span class=bad>failed</span>'}: {html.escape(str(sc.get('reason') or ''))}</div>"
            extra += "".join(f"<pre>$ {html.escape(c)}</pre>" for c in sc.get("commands", [])[:4])
        if step.error:
            extra += f"<div class=bad>{html.escape(step.error)}</div>"
        if step.model_output:
            extra += f"<details><summary>model reply</summary><pre>{html.escape(clip(step.model_output, REPORT_TEXT))}</pre></details>"
        if step.model_input:
            extra += f"<details><summary>prompt</summary><pre>{html.escape(clip(step.model_input, REPORT_TEXT))}</pre></details>"
        tokens = f" · {step.usage.total_tokens} tok" if step.usage.total_tokens else ""
        if step.rescued_by_lenient_parser:
            tokens += " · <span class=bad>rescued by the lenient parser</span>"
        card = (
            f'<div class="step {css}"><b>#{step.index}</b> {html.escape(step.kind)} · {step.wall_s:.2f}s{tokens}'
            + (f'<br><img src="{img}" loading="lazy">' if img else "")
            + f"<pre>{html.escape(action)}</pre>{extra}</div>"
        )
        cards.append(card)
        size += len(card)
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
        kinds = summary.groups.get("kind", {})
        rows = [(label, kinds[kind]) for kind, label in KIND_ROWS if kind in kinds]
        rows.append(("All", summary.overall))
        whole_kinds = config.tasks in ("all", "single-app", "cross-app")
        reference = [row for kind in kinds for row in _paper_rows(kind, config.agent)] if whole_kinds else []
        parts.append("<h2>Summary</h2>" + _metrics_table(rows, reference))
        if reference:
            parts.append(
                "<p class=defs>Grey rows: the paper's Table 2 (Gemini-2.5-Pro, on its 92 single-app and 47 "
                "cross-app tasks; N is its task count). This run's tasks are a subset: set them side by side "
                "with care.</p>"
            )

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
    parts.append("<h2>Outcomes</h2>" + _outcomes(results))
    parts.append(failures_html([(config.agent, summary)], links=True))
    if summary.overall is not None and (cells := diagnostic_cells(summary.overall)):
        rows = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in cells)
        parts.append(f"<h2>Diagnostics</h2><table><tr><th>Figure</th><th>Value</th></tr>{rows}</table>")
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
            f"<details id={episode_anchor(r.trajectory)}><summary>{head}</summary>{instruction}<div>{details}</div>{_steps(run_dir, r)}</details>"
        )
    parts.append("</body></html>")
    out.write_text("".join(parts), encoding="utf-8")
    return out


def write_comparison(out: Path, runs: list[tuple[str, Summary, list[EpisodeResult]]]) -> Path:
    """`compare --html`: the runs' metrics side by side (the paper's rows beneath), what ended each run's
    episodes, and one row per task with each run's outcome."""
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>masbench comparison</title><style>{CSS}</style></head><body>",
        f"<h1>masbench comparison — {len(runs)} runs</h1>",
    ]
    for kind in ("single-app", "cross-app", None):
        rows = [
            (name, m)
            for name, summary, _ in runs
            if (m := summary.overall if kind is None else summary.groups.get("kind", {}).get(kind))
            is not None
        ]
        if rows:
            reference = _paper_rows(kind, "") if kind else []
            parts.append(f"<h2>{html.escape(kind or 'All tasks')}</h2>" + _metrics_table(rows, reference))
    parts.append("<h2>Outcomes</h2>")
    parts += [f"<h3>{html.escape(name)}</h3>" + _outcomes(results) for name, _, results in runs]
    parts.append("<h2>Per task</h2>" + matrix_html([(name, results) for name, _, results in runs]))
    parts.append(failures_html([(name, summary) for name, summary, _ in runs], links=False))
    parts.append(
        f"<details><summary>Metric definitions</summary><div class=defs>{html.escape(METRICS_DOC or '')}</div></details>"
    )
    parts.append("</body></html>")
    out.write_text("".join(parts), encoding="utf-8")
    return out


def failures_html(runs: list[tuple[str, Summary]], links: bool) -> str:
    """Failed episodes per failure class, a column per run; with `links` (one run's report) each count is
    followed by its episodes, linked to their trajectories below. Empty when nothing was classified."""
    classes = [c for c in FAILURE_CLASSES if any(s.overall and s.overall.failures.get(c) for _, s in runs)]
    if not classes:
        return ""
    head = "".join(f"<th>{html.escape(name)}</th>" for name, _ in runs)
    rows = []
    for c in classes:
        cells = []
        for _, s in runs:
            count = s.overall.failures.get(c, 0) if s.overall else 0
            episodes = s.failure_episodes.get(c, []) if links else []
            anchors = ", ".join(f'<a href="#{episode_anchor(e)}">{html.escape(e)}</a>' for e in episodes)
            cells.append(f"<td>{count}{f'<div class=defs>{anchors}</div>' if anchors else ''}</td>")
        rows.append(
            f"<tr><td>{html.escape(c)}<div class=defs>{html.escape(FAILURE_DESCRIPTIONS[c])}</div></td>"
            + "".join(cells)
            + "</tr>"
        )
    return (
        "<h2>Failures by class</h2><p class=defs>Each failed episode under the first class that fits its "
        "trajectory (definitions: docs/metrics.md).</p>"
        f"<table><tr><th>Class</th>{head}</tr>{''.join(rows)}</table>"
    )
