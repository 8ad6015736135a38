"""The paper's metrics (SR, MS, MSR, MSRS, MET, MToC, MSC, SSR, GSAR) and our extra diagnostics,
overall and split by single/cross-app, level and app, with confidence intervals over repeats.

Definitions (stated in every report):
- SR: successful episodes / episodes.  MS: mean steps (MS_succ on successful episodes).
- MSR: mean of steps / optimal_steps; MSRS: the same over successful episodes only.
- MET: mean wall seconds per episode; MET_dev: mean modelled device seconds (virtual phones).
- MToC: mean thousands of agent tokens (input + output) per episode; judge tokens apart.
- calls/step, prompt tokens/step: agent model calls and input tokens per step, summed over the run (what
  an agent's design costs per decision, beside the published agent's).
- rescued replies: steps whose reply the agent's strict parser refuses and its lenient parser read (0 in
  strict mode, where such a reply is an invalid step); successes with a rescued reply: successful episodes
  with at least one, an upper bound on what leniency added to SR.
- MSC: mean shortcut calls per episode.  SSR: successful shortcut calls / shortcut calls (calls failed by an
  injected fault left out: `--faults`).  recovery rate: among episodes with an injected fault, the share
  that succeed.
- GSAR: shortcut actions / GUI actions, summed over the run (0 for GUI-only agents).
- name accuracy: share of shortcut calls whose name is in the task's hybrid reference; argument accuracy:
  among those, share whose arguments equal the reference call's; missed-shortcut rate: share of reference
  shortcut calls the agent never made.
- errors: episodes that ended in an error of the infrastructure (model unreachable, device lost, harness
  bug; `error_kinds` by whose). They are excluded from every metric above: an outage is not the agent's
  failure. `--resume` runs them again.
- failures: failed episodes per failure class read from their trajectories (eval/diagnostics.py), each
  counted once under its first class by precedence.
- app / shortcut precision, recall, F1 (AppBench): per episode, the set of apps in front or called and of
  shortcuts called against the task's apps and the hybrid reference's shortcuts, averaged over episodes.
  Refused calls: calls of KB shortcuts not offered in their episode (`--kb-exposure`), invalid steps.
  Online retrieval recall: share of steps whose reference's next shortcut the retriever offered.
  Every metric and choice in full: docs/metrics.md.
- judge accuracy: among episodes judged by both the programmatic check and the LLM judge (virtual phones,
  `--judge-mode both`), the share where the two agree; judge false-positive rate: among those the check
  failed, the share the judge called a success. None when no episode (or no failed one) has both.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, Field

from masbench.actions import ShortcutAction

from .diagnostics import EpisodeDiagnosis, diagnose_run, run_retriever, set_f1
from .records import SCHEMA_VERSION, EpisodeResult

if TYPE_CHECKING:
    from masbench.tasks import Task

# two-sided 95% Student t quantiles by degrees of freedom (df >= 30 uses the normal 1.96)
T95 = {
    1: 12.706,
    2: 4.303,
    3: 3.182,
    4: 2.776,
    5: 2.571,
    6: 2.447,
    7: 2.365,
    8: 2.306,
    9: 2.262,
    10: 2.228,
    15: 2.131,
    20: 2.086,
    29: 2.045,
}


class Metrics(BaseModel):
    episodes: int
    tasks: int
    SR: float
    MS: float
    MS_success: float | None
    MSR: float
    MSRS: float | None
    MET: float
    MET_device: float | None
    MToC: float
    MToC_judge: float
    MSC: float
    SSR: float | None
    GSAR: float | None
    invalid_rate: float
    rescued_steps: int = 0  # replies only a lenient parser could read (the agent's strict rules: invalid)
    successes_with_rescue: int = 0  # successful episodes with such a step: what leniency may have won
    cost_usd: float | None = None
    calls_per_step: float | None = None  # model calls per agent step (AndroidWorld's agents make two)
    prompt_tokens_per_step: float | None = None  # agent input tokens per step: what one step's context costs
    shortcut_name_accuracy: float | None = None
    shortcut_argument_accuracy: float | None = None
    missed_shortcut_rate: float | None = None
    SR_ci95: tuple[float, float] | None = None
    judge_accuracy: float | None = None
    judge_false_positive_rate: float | None = None
    failures: dict[str, int] = Field(default_factory=dict)  # failure class -> failed episodes (diagnostics)
    app_precision: float | None = None  # AppBench's F1 of App, its precision and recall: means over episodes
    app_recall: float | None = None
    app_f1: float | None = None
    shortcut_precision: float | None = None  # AppBench's F1 of API over shortcut names
    shortcut_recall: float | None = None
    shortcut_f1: float | None = None
    refused_shortcut_calls: int = 0  # calls of KB shortcuts not offered in their episode (--kb-exposure)
    online_retrieval_recall: float | None = None  # steps whose reference's next shortcut was offered
    faulted_episodes: int = 0  # episodes with a shortcut fault injected (--faults)
    recovery_rate: float | None = None  # the share of those that still succeed


class Summary(BaseModel):
    schema_version: int = SCHEMA_VERSION
    run: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    overall: Metrics | None
    groups: dict[str, dict[str, Metrics]] = Field(default_factory=dict)  # split name -> group -> metrics
    errors: int = 0  # episodes whose latest attempt ended in an infrastructure error: in no metric
    error_kinds: dict[str, int] = Field(default_factory=dict)
    # failure class -> the failed episodes under it (their trajectory directory under trajectories/)
    failure_episodes: dict[str, list[str]] = Field(default_factory=dict)


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


def _sample_mean(values: Iterable[float]) -> float:
    """The mean of a sample that is never empty (the episodes `compute` is given)."""
    values = list(values)
    return sum(values) / len(values)


def _r4(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _t95(df: int) -> float:
    if df >= 30:
        return 1.96
    return T95.get(df) or T95[max(k for k in T95 if k <= df)]


def confidence_interval(values: list[float]) -> tuple[float, float] | None:
    """95% t-interval of a mean over repeats (None with fewer than two)."""
    if len(values) < 2:
        return None
    mean, sd = statistics.fmean(values), statistics.stdev(values)
    half = _t95(len(values) - 1) * sd / math.sqrt(len(values))
    return (round(mean - half, 4), round(mean + half, 4))


def _reference_calls(task: Task) -> list[tuple[str, dict[str, Any]]]:
    return [(a.name, a.arguments) for a in task.solutions.hybrid if isinstance(a, ShortcutAction)]


def normalise(value: Any) -> Any:
    """A value as compared with a reference's: strings trimmed and case-folded."""
    return value.strip().lower() if isinstance(value, str) else value


def shortcut_accuracy(
    results: list[EpisodeResult], tasks: dict[str, Task]
) -> tuple[float | None, float | None, float | None]:
    """(name accuracy, argument accuracy, missed-shortcut rate) against the hybrid references."""
    calls = named = args_ok = refs = missed = 0
    for r in results:
        task = tasks.get(r.task_id)
        if task is None:
            continue
        reference = _reference_calls(task)
        ref_names = {name for name, _ in reference}
        for call in r.shortcut_calls_detail:
            calls += 1
            if call["name"] in ref_names:
                named += 1
                given = {k: normalise(v) for k, v in call.get("arguments", {}).items()}
                if any(
                    {k: normalise(v) for k, v in ref_args.items()} == given
                    for name, ref_args in reference
                    if name == call["name"]
                ):
                    args_ok += 1
        made = {c["name"] for c in r.shortcut_calls_detail}
        refs += len(reference)
        missed += sum(1 for name, _ in reference if name not in made)
    return (
        round(named / calls, 4) if calls else None,
        round(args_ok / named, 4) if named else None,
        round(missed / refs, 4) if refs else None,
    )


def judge_agreement(results: list[EpisodeResult]) -> tuple[float | None, float | None]:
    """(accuracy, false-positive rate) of the LLM judge against the programmatic check."""
    both = [r for r in results if r.check_passed is not None and r.judge_success is not None]
    negatives = [r for r in both if not r.check_passed]
    accuracy = sum(r.judge_success == r.check_passed for r in both) / len(both) if both else None
    fpr = sum(bool(r.judge_success) for r in negatives) / len(negatives) if negatives else None
    return (
        None if accuracy is None else round(accuracy, 4),
        None if fpr is None else round(fpr, 4),
    )


def _f1_means(pairs: list[tuple[list[str], list[str]]]) -> tuple[float | None, float | None, float | None]:
    """Mean precision, recall and F1 over the episodes where each is defined (`set_f1`)."""
    scores = [set_f1(used, reference) for used, reference in pairs]
    means = [_mean([v for s in scores if (v := s[i]) is not None]) for i in range(3)]
    precision, recall, f1 = (None if m is None else round(m, 4) for m in means)
    return precision, recall, f1


def failed_by_faults(result: EpisodeResult) -> int:
    """The episode's shortcut calls that an injected fault made fail (a `slow` one still runs the call)."""
    return sum(f.kind != "slow" for f in result.injected_faults)


def recovery(results: list[EpisodeResult]) -> dict[str, Any]:
    """The episodes with an injected fault and the share of them that still succeed (`--faults`)."""
    faulted = [r for r in results if r.injected_faults]
    rate = round(sum(r.success for r in faulted) / len(faulted), 4) if faulted else None
    return {"faulted_episodes": len(faulted), "recovery_rate": rate}


def diagnosed(
    results: list[EpisodeResult], diagnoses: dict[tuple[str, int], EpisodeDiagnosis]
) -> dict[str, Any]:
    """The Metrics fields read from trajectories: failure counts and AppBench's app and shortcut F1."""
    mine = [d for r in results if (d := diagnoses.get((r.task_id, r.repeat))) is not None]
    failures: dict[str, int] = defaultdict(int)
    for d in mine:
        if d.failure is not None:
            failures[d.failure] += 1
    apps = _f1_means([(d.apps_used, d.apps_reference) for d in mine])
    hits, steps = sum(d.retrieval_hits for d in mine), sum(d.retrieval_steps for d in mine)
    shortcuts = _f1_means([(d.shortcuts_used, d.shortcuts_reference) for d in mine])
    return {
        "failures": dict(sorted(failures.items(), key=lambda kv: (-kv[1], kv[0]))),
        **dict(zip(("app_precision", "app_recall", "app_f1"), apps, strict=True)),
        **dict(zip(("shortcut_precision", "shortcut_recall", "shortcut_f1"), shortcuts, strict=True)),
        "refused_shortcut_calls": sum(d.refused_calls for d in mine),
        "online_retrieval_recall": round(hits / steps, 4) if steps else None,
    }


def compute(
    results: list[EpisodeResult],
    tasks: dict[str, Task],
    diagnoses: dict[tuple[str, int], EpisodeDiagnosis] | None = None,
) -> Metrics | None:
    """The metrics of `results`; with `diagnoses` (read from the trajectories) the failure counts and F1s."""
    if not results:
        return None
    succ = [r for r in results if r.success]
    calls = sum(r.shortcut_calls for r in results)
    broken = sum(failed_by_faults(r) for r in results)  # the harness's failures, not the agent's
    gui = sum(r.gui_actions for r in results)
    device = [r.device_ms / 1000 for r in results if r.device_ms is not None]
    costs = [r.agent_usage.cost_usd for r in results]
    priced = [c for c in costs if c is not None]
    by_repeat: dict[int, list[bool]] = defaultdict(list)
    for r in results:
        by_repeat[r.repeat].append(r.success)
    name_acc, arg_acc, missed = shortcut_accuracy(results, tasks)
    judge_acc, judge_fpr = judge_agreement(results)
    steps = sum(r.steps for r in results)
    ratio = [r.steps / r.optimal_steps for r in results if r.optimal_steps]
    ratio_s = [r.steps / r.optimal_steps for r in succ if r.optimal_steps]
    return Metrics(
        episodes=len(results),
        tasks=len({r.task_id for r in results}),
        SR=round(len(succ) / len(results), 4),
        MS=round(_sample_mean(r.steps for r in results), 4),
        MS_success=_r4(_mean(r.steps for r in succ)),
        MSR=round(_mean(ratio) or 0.0, 4),
        MSRS=_r4(_mean(ratio_s)),
        MET=round(_sample_mean(r.wall_s for r in results), 4),
        MET_device=_r4(_mean(device)),
        MToC=round(_sample_mean(r.agent_usage.total_tokens / 1000 for r in results), 4),
        MToC_judge=round(_sample_mean(r.judge_usage.total_tokens / 1000 for r in results), 4),
        MSC=round(calls / len(results), 4),
        SSR=_r4(sum(r.shortcut_successes for r in results) / (calls - broken) if calls - broken else None),
        GSAR=_r4(calls / gui if gui else None),
        invalid_rate=round(sum(r.invalid_steps for r in results) / max(1, sum(r.steps for r in results)), 4),
        rescued_steps=sum(r.rescued_by_lenient_parser for r in results),
        successes_with_rescue=sum(1 for r in succ if r.rescued_by_lenient_parser),
        cost_usd=round(sum(priced), 6) if len(priced) == len(costs) else None,
        calls_per_step=_r4(sum(r.agent_usage.calls for r in results) / steps if steps else None),
        prompt_tokens_per_step=_r4(
            sum(r.agent_usage.input_tokens for r in results) / steps if steps else None
        ),
        shortcut_name_accuracy=name_acc,
        shortcut_argument_accuracy=arg_acc,
        missed_shortcut_rate=missed,
        SR_ci95=confidence_interval([sum(v) / len(v) for v in by_repeat.values()]),
        judge_accuracy=judge_acc,
        judge_false_positive_rate=judge_fpr,
        **(diagnosed(results, diagnoses) if diagnoses else {}),
        **recovery(results),
    )


def _split(
    results: list[EpisodeResult], key: Callable[[EpisodeResult], list[str]]
) -> dict[str, list[EpisodeResult]]:
    groups: dict[str, list[EpisodeResult]] = defaultdict(list)
    for r in results:
        for k in key(r):
            groups[k].append(r)
    return dict(sorted(groups.items()))


def summarise(
    results: list[EpisodeResult],
    tasks: list[Task],
    run: dict[str, Any] | None = None,
    run_dir: Path | None = None,
) -> Summary:
    """Metrics overall and by kind, level and app; with `run_dir`, the diagnostics its trajectories give."""
    by_id = {t.id: t for t in tasks}
    known = [r for r in results if r.task_id in by_id and r.scored]
    predefined = (run or {}).get("kb", "predefined") == "predefined"  # else names are not the references'
    retriever = run_retriever(run or {}) if run_dir is not None else None
    diagnoses = diagnose_run(run_dir, known, by_id, predefined, retriever) if run_dir is not None else {}
    errors = [r for r in results if r.task_id in by_id and not r.scored]
    splits: dict[str, Callable[[EpisodeResult], list[str]]] = {
        "kind": lambda r: [by_id[r.task_id].kind],
        "level": lambda r: [f"level-{by_id[r.task_id].level}"],
        "app": lambda r: list(by_id[r.task_id].apps),
    }
    groups = {
        name: {
            g: m for g, rs in _split(known, key).items() if (m := compute(rs, by_id, diagnoses)) is not None
        }
        for name, key in splits.items()
    }
    kinds: dict[str, int] = defaultdict(int)
    for r in errors:
        kinds[r.error_kind or "unknown"] += 1
    episodes: dict[str, list[str]] = defaultdict(list)
    for d in sorted(diagnoses.values(), key=lambda d: d.key):
        if d.failure is not None:
            episodes[d.failure].append(d.trajectory.removeprefix("trajectories/"))
    return Summary(
        run=run or {},
        overall=compute(known, by_id, diagnoses),
        groups=groups,
        errors=len(errors),
        error_kinds=dict(sorted(kinds.items())),
        failure_episodes=dict(episodes),
    )


def episode_outcome(result: EpisodeResult) -> str:
    """How an episode ended, in words a reader compares across runs: success, the agent's kind of failure,
    or the infrastructure's error."""
    if result.success:
        return "success"
    if not result.scored:
        return f"error: {result.error_kind or 'unknown'}"
    return {
        "finished": "finished, wrong final state",
        "step_limit": "step limit reached",
        "time_limit": "time limit reached",
    }.get(result.end_reason, result.end_reason)


def outcome_counts(results: list[EpisodeResult]) -> dict[str, int]:
    """Episodes per outcome, the most frequent first."""
    counts: dict[str, int] = defaultdict(int)
    for r in results:
        counts[episode_outcome(r)] += 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


# one word per outcome, for a matrix of tasks by runs
SHORT_OUTCOME = {
    "success": "ok",
    "finished, wrong final state": "wrong",
    "step limit reached": "steps",
    "time limit reached": "time",
}


def task_matrix(runs: list[tuple[str, list[EpisodeResult]]]) -> list[tuple[str, list[str]]]:
    """(task, one cell per run) for every task any run has: ok, the kind of failure, error, or "" when the
    run did not have the task. Repeats show as successes/episodes."""
    tasks = sorted({r.task_id for _, results in runs for r in results})
    matrix = []
    for task in tasks:
        cells = []
        for _, results in runs:
            mine = [r for r in results if r.task_id == task]
            if not mine:
                cells.append("")
            elif len(mine) > 1:
                cells.append(f"{sum(r.success for r in mine)}/{len(mine)}")
            else:
                cells.append(SHORT_OUTCOME.get(episode_outcome(mine[0]), "error"))
        matrix.append((task, cells))
    return matrix


class PaperRow(BaseModel):
    SR: float
    MSRS: float
    MET: float
    MToC: float
    MSC: float
    GSAR: float


class PaperKind(BaseModel):
    tasks: int
    rows: dict[str, PaperRow]


def paper_table2() -> dict[str, PaperKind]:
    """The paper's Table 2 by task kind and agent (a data file beside this module)."""
    path = Path(__file__).with_name("paper_table2.yaml")
    return {kind: PaperKind.model_validate(v) for kind, v in yaml.safe_load(path.read_text()).items()}
