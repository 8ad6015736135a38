"""An HTML report: summary tables, SVG plots (SR vs time vs tokens) and a trajectory viewer with each
step's screenshot, action and shortcut call. Screenshots are not copied into the page: each is loaded from
the run directory when its episode is opened, with the touch drawn over it, and a click enlarges it. So a
139-task run's report is a few MB of text that opens at once; keep it beside (or inside) its run
directory."""

from __future__ import annotations

import html
import json
import math
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from PIL import Image

from masbench.trajectory import StepRecord, clip

from .diagnostics import FAILURE_CLASSES, FAILURE_DESCRIPTIONS, episode_anchor
from .metrics import Metrics, PaperRow, Summary, outcome_counts, paper_table2, task_matrix
from .metrics import __doc__ as METRICS_DOC
from .records import EpisodeResult, RunConfig
from .table import COLUMNS, KIND_ROWS, diagnostic_cells, legend, uses_predefined_kb

if TYPE_CHECKING:
    from masbench.tasks import Task

# Size budget of one episode in the report: each reply and prompt shown up to REPORT_TEXT characters, and
# steps after EPISODE_BUDGET bytes of cards left out (named, with the steps.jsonl that holds them).
REPORT_TEXT = 8_000
EPISODE_BUDGET = 3_000_000
MARK = "#ea4335"  # the touch marker: a red that reads on white and on dark screens
CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#202124;background:#fafafa}
h1{font-size:26px}h2{font-size:20px;margin-top:32px}table{border-collapse:collapse;margin:8px 0;background:#fff}
th,td{border:1px solid #dadce0;padding:4px 10px;text-align:right;font-size:13px}th{background:#f1f3f4}
td:first-child,th:first-child,table.text td,table.text th{text-align:left}.ok{color:#188038;font-weight:600}.bad{color:#d93025;font-weight:600}
details{background:#fff;border:1px solid #dadce0;border-radius:8px;margin:6px 0;padding:6px 12px}
summary{cursor:pointer;font-size:14px}.steps{display:flex;flex-wrap:wrap;gap:10px;margin-top:8px}
.step{width:230px;font-size:12px;border:1px solid #e0e0e0;border-radius:6px;padding:6px;background:#fcfcfc}
.fig{position:relative;display:inline-block;line-height:0}.fig svg{position:absolute;left:0;top:0;width:100%;height:100%}
.step .fig img{width:216px;border:1px solid #ccc;border-radius:4px}a.shot{cursor:zoom-in}
#lb{position:fixed;inset:0;background:rgba(0,0,0,.85);display:none;align-items:center;justify-content:center;cursor:zoom-out;z-index:9}
#lb.on{display:flex}#lb .fig img{height:94vh;width:auto}.step pre{white-space:pre-wrap;word-break:break-all;margin:4px 0}
tr.ref td{color:#80868b;font-style:italic}.sc{background:#e8f0fe}.inv{background:#fce8e6}.target{color:#5f6368;font-style:italic}.defs{font-size:12px;color:#5f6368;white-space:pre-wrap}
"""


# a click on a screenshot shows it full size, its mark with it; a click or Escape closes it
LIGHTBOX = """<div id=lb></div><script>
const lb=document.getElementById('lb');
document.addEventListener('click',e=>{const a=e.target.closest('a.shot');
if(a){e.preventDefault();lb.replaceChildren(a.firstElementChild.cloneNode(true));lb.classList.add('on')}
else if(e.target.closest('#lb'))lb.classList.remove('on')});
document.addEventListener('keydown',e=>{if(e.key==='Escape')lb.classList.remove('on')});
</script>"""


def screenshot_html(path: Path, page_dir: Path, touch: list[tuple[int, int]] | None) -> str:
    """A screenshot by reference (relative to the page), with where the step touched drawn over it in SVG
    at the picture's own coordinates: a ring for a tap, an arrow for a swipe. Empty when it is missing."""
    if not path.exists():
        return ""
    with Image.open(path) as img:  # reads the header only
        w, h = img.size
    src = html.escape(quote(os.path.relpath(path, page_dir)))
    mark = ""
    if touch:
        r, stroke = max(24, w // 16), max(6, w // 90)
        x, y = touch[0]
        mark = (f'<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{MARK}" stroke-width="{stroke}"/>'
                f'<circle cx="{x}" cy="{y}" r="{stroke}" fill="{MARK}"/>')  # fmt: skip
        if len(touch) > 1:  # a swipe: a line to the end point and an arrow head there
            x2, y2 = touch[-1]
            angle = math.atan2(y2 - y, x2 - x)
            head = " ".join(
                f"{x2 - r * math.cos(angle + a):.0f},{y2 - r * math.sin(angle + a):.0f}"
                for a in (math.pi / 6, -math.pi / 6)
            )
            mark += (f'<line x1="{x}" y1="{y}" x2="{x2}" y2="{y2}" stroke="{MARK}" stroke-width="{stroke}"/>'
                     f'<polygon points="{x2},{y2} {head}" fill="{MARK}"/>')  # fmt: skip
        mark = f'<svg viewBox="0 0 {w} {h}">{mark}</svg>'
    return (
        f'<a class=shot href="{src}"><span class=fig><img src="{src}" loading=lazy width=216 '
        f'alt="screenshot">{mark}</span></a>'
    )


def _fmt(v: float | None, digits: int = 3) -> str:
    return "-" if v is None else f"{v:.{digits}f}"


def _metrics_table(
    rows: list[tuple[str, Metrics]], reference: Sequence[tuple[str, int, PaperRow]] = ()
) -> str:
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


def _paper_caption(tasks: dict[str, int]) -> str:
    """What the grey rows are, and whether this run has as many tasks of each kind as the paper ran."""
    paper = paper_table2()
    counts = ", ".join(f"{paper[k].tasks} {k}" for k in tasks)
    short = [f"{n} of its {paper[k].tasks} {k}" for k, n in tasks.items() if n < paper[k].tasks]
    coverage = (
        f"This run has {' and '.join(short)} tasks, a subset: set them side by side with care."
        if short
        else "This run has as many tasks of each kind (its own apps and tasks, on virtual phones)."
    )
    return (
        f"Grey rows: the paper's Table 2 (Gemini-2.5-Pro on {counts} tasks; N is its task count). {coverage}"
    )


def _outcomes(results: list[EpisodeResult]) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(outcome)}</td><td>{n}</td></tr>"
        for outcome, n in outcome_counts(results).items()
    )
    return f"<table><tr><th>Outcome</th><th>Episodes</th></tr>{rows}</table>"


def _linker(run_dir: Path, page_dir: Path) -> Callable[[EpisodeResult], str]:
    """`_episode_link` for the episodes of one run."""
    return lambda result: _episode_link(run_dir, result, page_dir)


def _episode_link(run_dir: Path, result: EpisodeResult, page_dir: Path) -> str:
    """Where a page in `page_dir` finds an episode: its place in the run's report when there is one,
    else its trajectory directory."""
    report = run_dir / "report.html"
    if report.exists():
        return f"{quote(os.path.relpath(report, page_dir))}#{episode_anchor(result.trajectory)}"
    return quote(os.path.relpath(run_dir / result.trajectory, page_dir))


def matrix_html(
    runs: list[tuple[str, list[EpisodeResult]]], links: list[Callable[[EpisodeResult], str]]
) -> str:
    """The per-task matrix, each cell linked (by `links`, one per run) to the episode behind it (the first
    of its repeats)."""
    first = [{r.task_id: r for r in sorted(results, key=lambda r: -r.repeat)} for _, results in runs]
    head = "".join(f"<th>{html.escape(name)}</th>" for name, _ in runs)
    rows = []
    for task, cells in task_matrix(runs):
        tds = []
        for n, cell in enumerate(cells):
            result = first[n].get(task)
            text = html.escape(cell)
            if result is not None:
                text = f'<a class={"ok" if cell == "ok" else "bad"} href="{html.escape(links[n](result))}">{text}</a>'
            tds.append(f"<td>{text}</td>")
        rows.append(f"<tr><td>{html.escape(task)}</td>{''.join(tds)}</tr>")
    return f"<table><tr><th>Task</th>{head}</tr>{''.join(rows)}</table>"


def _covers(summary: Summary, kind: str) -> bool:
    """Whether a run has as many tasks of `kind` as the paper's Table 2 ran."""
    m = summary.groups.get("kind", {}).get(kind)
    paper = paper_table2().get(kind)
    return m is not None and paper is not None and m.tasks >= paper.tasks


def _ticks(top: float) -> list[float]:
    """Round tick values from 0 to the first round number at or above `top`: 0, 0.1, 0.2... or 0, 50..."""
    raw = (top or 1.0) / 4
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    return [round(i * step, 10) for i in range(math.ceil((top or 1.0) / step - 1e-9) + 1)]


def _label_spots(
    bubbles: list[tuple[float, float, float]], box: tuple[float, float, float, float]
) -> list[tuple[float, float] | None]:
    """Where each bubble's number goes: on the bubble if no other number is there, else the nearest free
    spot around it (then drawn with a leader line), else nowhere (the legend and tooltip still name it).
    `box` bounds the spots: (left, top, right, bottom)."""
    taken: list[tuple[float, float]] = []
    spots: list[tuple[float, float] | None] = []
    for cx, cy, r in bubbles:
        around = [(cx, cy)] + [
            (cx + d * math.cos(a * math.pi / 4), cy + d * math.sin(a * math.pi / 4))
            for d in (r + 9, r + 22, r + 36)
            for a in (6, 2, 0, 4, 7, 5, 1, 3)  # above, below, right, left, then the diagonals
        ]
        free = (
            (x, y)
            for x, y in around
            if box[0] + 8 <= x <= box[2] - 8 and box[1] + 6 <= y <= box[3] - 6
            and all(abs(x - tx) > 20 or abs(y - ty) > 13 for tx, ty in taken)
        )  # fmt: skip
        spot = next(free, None)
        if spot is not None:
            taken.append(spot)
        spots.append(spot)
    return spots


def _scatter(
    points: list[tuple[str, float, float, float]], xlabel: str, ylabel: str, labels: bool = True
) -> str:
    """SVG scatter of (label, x, y in 0..1, size), bubble area proportional to size. The axes start a
    bubble's width inside the frame, so points at y 0 or 1 are whole. With `labels` each bubble carries a
    number placed where it collides with no other and a legend below names it; without, names are
    tooltips."""
    if not points:
        return ""
    w, h, left, top, right, bottom = 560, 320, 52, 10, 550, 280
    rmax = 18
    xticks = _ticks(max(p[1] for p in points))
    smax = max(p[3] for p in points) or 1.0

    def px(x: float) -> float:
        return left + rmax + x / xticks[-1] * (right - left - 2 * rmax)

    def py(y: float) -> float:
        return bottom - rmax - y * (bottom - top - 2 * rmax)

    parts = [
        f'<svg width="{w}" height="{h}" xmlns="http://www.w3.org/2000/svg" style="background:#fff;border:1px solid #dadce0">',
        f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#5f6368"/>'
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#5f6368"/>',
        f'<text x="{(left + right) / 2}" y="{h - 8}" font-size="12" text-anchor="middle">{html.escape(xlabel)}</text>',
        f'<text x="14" y="{h / 2}" font-size="12" text-anchor="middle" transform="rotate(-90 14 {h / 2})">{html.escape(ylabel)}</text>',
    ]  # fmt: skip
    for frac in (0, 0.5, 1):
        parts.append(f'<text x="{left - 6}" y="{py(frac) + 4:.1f}" font-size="10" text-anchor="end">{frac:.1f}</text>'
                     f'<line x1="{left - 3}" y1="{py(frac):.1f}" x2="{left}" y2="{py(frac):.1f}" stroke="#5f6368"/>')  # fmt: skip
    for t in xticks:
        parts.append(f'<text x="{px(t):.1f}" y="{bottom + 14}" font-size="10" text-anchor="middle">{t:g}</text>'
                     f'<line x1="{px(t):.1f}" y1="{bottom}" x2="{px(t):.1f}" y2="{bottom + 3}" stroke="#5f6368"/>')  # fmt: skip
    bubbles = [(px(x), py(y), 4 + (rmax - 4) * math.sqrt(size / smax)) for _, x, y, size in points]
    for (label, *_), (cx, cy, r) in zip(points, bubbles, strict=True):
        parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="#1a73e8" fill-opacity="0.3" '
                     f'stroke="#1a73e8"><title>{html.escape(label)}</title></circle>')  # fmt: skip
    if labels:
        for n, ((cx, cy, _), spot) in enumerate(zip(bubbles, _label_spots(bubbles, (left, top, right, bottom)), strict=True), 1):  # fmt: skip
            if spot is None:
                continue
            x, y = spot
            if (x, y) != (cx, cy):
                parts.append(
                    f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{x:.1f}" y2="{y:.1f}" stroke="#9aa0a6"/>'
                )
            parts.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" font-weight="600" text-anchor="middle" '
                         f'paint-order="stroke" stroke="#fff" stroke-width="3">{n}</text>')  # fmt: skip
    parts.append("</svg>")
    if labels:
        legend = " · ".join(f"<b>{n}</b> {html.escape(p[0])}" for n, p in enumerate(points, 1))
        parts.append(f"<p class=defs>{legend}</p>")
    return "".join(parts)


def _steps(run_dir: Path, result: EpisodeResult, page_dir: Path) -> str:
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
        shot = (
            screenshot_html(run_dir / result.trajectory / step.screenshot, page_dir, step.touch)
            if step.screenshot
            else ""
        )
        css = "sc" if step.kind == "shortcut" else "inv" if step.kind == "invalid" else ""
        action = json.dumps(step.action, ensure_ascii=False) if step.action else "(unusable model output)"
        extra = f"<div class=target>on {html.escape(step.target)}</div>" if step.target else ""
        if step.shortcut:
            sc = step.shortcut
            extra += f"<div>shortcut {'<span class=ok>ok</span>' if sc.get('success') else '<span class=bad>failed</span>'}: {html.escape(str(sc.get('reason') or ''))}</div>"
            extra += "".join(f"<pre>$ {html.escape(c)}</pre>" for c in sc.get("commands", [])[:4])
        if step.error:
            extra += f"<div class=bad>{html.escape(step.error)}</div>"
        for label, text in (("model reply", step.model_output), ("prompt", step.model_input)):
            if text:
                extra += f"<details><summary>{label}</summary><pre>{html.escape(clip(text, REPORT_TEXT) or '')}</pre></details>"
        tokens = f" · {step.usage.total_tokens} tok" if step.usage.total_tokens else ""
        if step.rescued_by_lenient_parser:
            tokens += " · <span class=bad>rescued by the lenient parser</span>"
        card = (
            f'<div class="step {css}"><b>#{step.index}</b> {html.escape(step.kind)} · {step.wall_s:.2f}s{tokens}'
            + (f"<br>{shot}" if shot else "")
            + f"<pre>{html.escape(action)}</pre>{extra}</div>"
        )
        cards.append(card)
        size += len(card)
    return '<div class="steps">' + "".join(cards) + "</div>"


def _summary_sections(
    config: RunConfig, results: list[EpisodeResult], summary: Summary, overall: Metrics
) -> list[str]:
    """The report's metric tables (by kind beside the paper's figures, by level, by app) and its plots."""
    sections: list[str] = []
    kinds = summary.groups.get("kind", {})
    rows = [(label, kinds[kind]) for kind, label in KIND_ROWS if kind in kinds]
    rows.append(("All", overall))
    whole_kinds = config.tasks in ("all", "single-app", "cross-app")
    shown = [kind for kind, _ in KIND_ROWS if kind in kinds] if whole_kinds else []
    reference = [row for kind in shown for row in _paper_rows(kind, config.agent)]
    sections.append("<h2>Summary</h2>" + _metrics_table(rows, reference) + f"<p class=defs>{legend()}</p>")
    if reference:
        sections.append(
            f"<p class=defs>{html.escape(_paper_caption({k: kinds[k].tasks for k in shown}))}</p>"
        )

    for split in ("level", "app"):
        sections.append(f"<h2>By {split}</h2>" + _metrics_table(list(summary.groups.get(split, {}).items())))
    apps = summary.groups.get("app", {})
    sections.append(
        "<h2>SR vs time vs tokens</h2><p>One bubble per app: x = MET (s), y = SR, size = MToC (k tokens).</p>"
    )
    sections.append(_scatter([(k, m.MET, m.SR, m.MToC or 0.1) for k, m in apps.items()], "MET (s)", "SR"))
    sections.append(
        "<p>One bubble per episode: x = wall time (s), y = success, size = steps (hover for the task).</p>"
    )
    sections.append(
        _scatter(
            [(r.task_id, r.wall_s, 1.0 if r.success else 0.0, r.steps) for r in results],
            "wall time (s)",
            "success",
            labels=False,
        )
    )
    return sections


def _trajectory(run_dir: Path, r: EpisodeResult, task: Task | None, page_dir: Path) -> str:
    """One episode's foldable block: its outcome, instruction, check details and step cards."""
    status = (
        "<span class=ok>success</span>"
        if r.success
        else f"<span class=bad>{html.escape(r.end_reason)}</span>"
    )
    calls = f"{r.shortcut_calls} shortcut call{'' if r.shortcut_calls == 1 else 's'}"
    head = f"{html.escape(r.task_id)}{f' r{r.repeat}' if r.repeat else ''} — {status} · {r.steps} steps (optimal {r.optimal_steps}) · {calls} · {r.wall_s:.1f}s"
    instruction = f"<p><i>{html.escape(task.instruction)}</i></p>" if task else ""
    details = "".join(f"<div>{html.escape(d)}</div>" for d in r.check_details)
    return f"<details id={episode_anchor(r.trajectory)}><summary>{head}</summary>{instruction}<div>{details}</div>{_steps(run_dir, r, page_dir)}</details>"


def write_report(
    run_dir: Path,
    config: RunConfig,
    results: list[EpisodeResult],
    tasks: list[Task],
    summary: Summary,
    out: Path | None = None,
    on_episode: Callable[[], None] | None = None,
) -> Path:
    """Write the report (default RUN_DIR/report.html); `on_episode` is called as each episode's trajectory
    is written, for a progress display."""
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
        parts += _summary_sections(config, results, summary, summary.overall)
    parts.append("<h2>Outcomes</h2>" + _outcomes(results))
    parts.append(failures_html([(config.agent, summary)], links=True))
    if summary.overall is not None:
        cells = diagnostic_cells(summary.overall, uses_predefined_kb(summary))
        rows = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in cells)
        parts.append(f"<h2>Diagnostics</h2><table><tr><th>Figure</th><th>Value</th></tr>{rows}</table>")
    parts.append(
        f"<details><summary>Metric definitions</summary><div class=defs>{html.escape(METRICS_DOC or '')}</div></details>"
    )
    parts.append("<h2>Trajectories</h2>")
    for r in sorted(results, key=lambda r: (r.task_id, r.repeat)):
        parts.append(_trajectory(run_dir, r, by_id.get(r.task_id), out.parent))
        if on_episode is not None:
            on_episode()
    parts.append(LIGHTBOX + "</body></html>")
    out.write_text("".join(parts), encoding="utf-8")
    return out


def write_comparison(
    out: Path,
    runs: list[tuple[str, Summary, list[EpisodeResult]]],
    run_dirs: list[Path],
    warning: str | None = None,
) -> Path:
    """`compare --html`: the terminal's warning, the runs' metrics side by side (the paper's rows beneath a
    kind only when every run has all its tasks, so like is set beside like), what ended each run's
    episodes, and one row per task with each run's outcome linked to the episode."""
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>masbench comparison</title><style>{CSS}</style></head><body>",
        f"<h1>masbench comparison — {len(runs)} runs</h1>",
        "<ol>"
        + "".join(f"<li>{html.escape(name)} <span class=defs>{html.escape(str(d))}</span></li>" for (name, *_), d in zip(runs, run_dirs, strict=True))
        + "</ol>",
    ]  # fmt: skip
    if warning:
        parts.append(f"<p class=bad>warning: {html.escape(warning)}</p>")
    for kind in ("single-app", "cross-app", None):
        rows = [
            (name, m)
            for name, summary, _ in runs
            if (m := summary.overall if kind is None else summary.groups.get("kind", {}).get(kind))
            is not None
        ]
        if rows:
            whole = kind is not None and all(_covers(summary, kind) for _, summary, _ in runs)
            reference = _paper_rows(kind, "") if kind is not None and whole else []
            parts.append(f"<h2>{html.escape(kind or 'All tasks')}</h2>" + _metrics_table(rows, reference))
    parts.append("<h2>Outcomes</h2>")
    parts += [f"<h3>{html.escape(name)}</h3>" + _outcomes(results) for name, _, results in runs]
    links = [_linker(d, out.parent) for d in run_dirs]
    parts.append("<h2>Per task</h2>" + matrix_html([(name, results) for name, _, results in runs], links))
    parts.append(f"<p class=defs>{legend()}</p>")
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


def html_table(head: list[str], rows: list[list[str]], text: bool = False) -> str:
    """A table of plain-text cells (escaped here), a header row first; figures align right, `text` tables
    (words in every column) left."""
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table{' class=text' if text else ''}><tr>{cells}</tr>{body}</table>"


def html_page(title: str, body: str) -> str:
    """A whole page in the report's style around `body` (HTML)."""
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{CSS}</style></head><body>{body}</body></html>"
    )
