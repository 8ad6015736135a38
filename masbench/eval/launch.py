"""From a validated `RunConfig` to a run under way, for `masbench run`: the checks that need the machine
(devices present, tasks and KB loadable, models set up), the run directory, the `Runner` with what each
worker builds (agent, judge, grounding model, and the cassettes that record their live calls), and the
executor that plays it: worker threads here, or Ray actors (`ray_executor.py`).

The run policy itself (which options go together) is `RunConfig`'s (`records.py`); what changes between
sessions of one run (devices, executor, output options) is the `Session`."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from masbench.agents import AGENTS, make_agent
from masbench.agents.retrieval import Exposure, OffersShortcuts
from masbench.device import VPhoneMode

from .records import RunConfig, RunOptionError
from .runner import RunEvents, Runner, load_run_kb

if TYPE_CHECKING:
    from masbench.agents import Agent
    from masbench.eval.judge import Judge
    from masbench.shortcuts import Ground, KnowledgeBase
    from masbench.tasks import Task

REPLAYED = ("cassette:", "scripted:")  # model forms that make no live calls, so record none


@dataclass(frozen=True)
class Session:
    """What one session of a run is given besides its config: these may change on `--resume`."""

    run_dir: Path
    devices: list[str]
    resume: bool = False
    tasks_dir: Path | None = None
    vphone_mode: VPhoneMode = "process"
    save_screens: bool = True
    record: bool = True  # record live model calls into the run directory's cassettes
    ray_address: str | None = None
    grounding: str | None = None  # the model that grounds dynamic shortcuts (`grounding_for`)


def grounding_for(agent: str, model: str | None, grounding_model: str | None) -> str | None:
    """The model that grounds dynamic shortcuts: `--grounding-model`, else the agent's own model (none for
    an agent without one)."""
    spec = AGENTS[agent]
    return grounding_model or ((model or spec.default_model) if spec.needs_model else None)


def check_run(config: RunConfig, session: Session) -> tuple[RunConfig, list[Task], KnowledgeBase | None]:
    """Everything a run needs from this machine, checked before a run directory exists: the config with
    the task ids its `--tasks` selects, those tasks and the KB. A mistyped serial, an empty selection, a
    KB the agent cannot use or a model that cannot be set up fails here (`ValueError`, `OSError`,
    `LLMConfigError`); a Ray executor without Ray installed is a `RunOptionError`."""
    from masbench.device import check_present, parse_specs
    from masbench.llm import make_llm
    from masbench.shortcuts.grounding import check_grounding
    from masbench.tasks import load_tasks

    if config.executor == "ray":
        from .ray_executor import import_ray

        try:
            import_ray()
        except ImportError as exc:
            raise RunOptionError(str(exc), "--executor") from None
    check_present(parse_specs(session.devices)[1])
    selected = load_tasks(session.tasks_dir).select(config.tasks)
    if not selected:
        raise ValueError(f"no tasks match --tasks {config.tasks!r}")
    knowledge = load_run_kb(config.kb)
    agent = make_agent(config.agent, config.model)
    check_grounding(agent.executor_kb(knowledge), session.grounding, f"--kb {config.kb}")
    if config.kb_exposure != "retrieved" and not isinstance(agent, OffersShortcuts):
        raise ValueError(
            f"--kb-exposure {config.kb_exposure}: {config.agent} is not offered retrieved shortcuts"
        )
    for other in filter(None, (config.judge, session.grounding)):
        make_llm(other)  # fail fast on a missing key or a bad --judge / --grounding-model
    return config.model_copy(update={"task_ids": [t.id for t in selected]}), selected, knowledge


@dataclass(frozen=True)
class Cassettes:
    """Where a session records live model calls, None where it records none (replayed models)."""

    agent: Path | None
    grounding: Path | None


def cassettes(config: RunConfig, session: Session) -> Cassettes:
    """The agent's live calls go to llm_cassette.jsonl; grounding calls too when the agent's model grounds
    (that cassette then replays both), else to grounding_cassette.jsonl."""
    live = AGENTS[config.agent].needs_model and not (config.model or "").startswith(REPLAYED)
    agent = session.run_dir / "llm_cassette.jsonl" if session.record and live else None
    grounding = session.grounding
    if not (grounding and session.record and not grounding.startswith(REPLAYED)):
        return Cassettes(agent, None)
    shared = grounding == config.model
    return Cassettes(
        agent, session.run_dir / ("llm_cassette.jsonl" if shared else "grounding_cassette.jsonl")
    )


def build_runner(
    config: RunConfig, tasks: list[Task], kb: KnowledgeBase | None, session: Session, recorded: Cassettes
) -> Runner:
    """The runner, with what each of its workers builds for itself: agent, judge and grounding model."""
    from masbench.eval.judge import Judge
    from masbench.llm import make_llm
    from masbench.shortcuts.grounding import make_ground

    judge, grounding = config.judge, session.grounding

    def new_agent() -> Agent:
        return exposed(make_agent(config.agent, config.model, record_to=recorded.agent), config.kb_exposure)

    def new_judge() -> Judge:  # live judge calls are recorded so the run can be re-judged from the cassette
        assert judge is not None
        record = None if judge.startswith("cassette:") else session.run_dir / "judge_cassette.jsonl"
        return Judge(make_llm(judge, record_to=record))

    def new_ground() -> Ground:
        assert grounding is not None
        return make_ground(grounding, record_to=recorded.grounding)

    return Runner(
        config, tasks, new_agent, kb, session.run_dir, save_screens=session.save_screens,
        make_judge=new_judge if judge else None, learning=AGENTS[config.agent].learns,
        make_ground=new_ground if grounding else None,
    )  # fmt: skip


def exposed(agent: Agent, exposure: Exposure) -> Agent:
    """`agent` offered the KB at `exposure` (MAS agents; `check_run` refuses another level for the rest)."""
    if isinstance(agent, OffersShortcuts):
        agent.expose(exposure)
    return agent


ShowProgress = Callable[[bool], AbstractContextManager[RunEvents]]  # on_ray -> progress display's events


def play(runner: Runner, session: Session, recorded: Cassettes, show: ShowProgress) -> None:
    """Play the runner's pending items with the config's executor; `show` draws progress once the devices
    are up. Raises `DeviceSpecError` for devices that cannot be opened, `ActorStartError` for Ray actors that
    cannot start."""
    from masbench.device import open_devices

    if runner.config.executor == "ray":
        from .ray_executor import WorkerSpec, run_on_ray

        config = runner.config
        worker = WorkerSpec(
            device="", agent=config.agent, model=config.model, judge=config.judge, kb=config.kb,
            tasks_dir=str(session.tasks_dir) if session.tasks_dir else None, config_json=config.model_dump_json(),
            save_screens=session.save_screens, record=recorded.agent is not None, grounding_model=session.grounding,
            grounding_cassette=recorded.grounding.name if recorded.grounding else None,
        )  # fmt: skip
        with show(True) as events:
            runner.events = events
            run_on_ray(runner, session.devices, worker, address=session.ray_address)
        return
    with open_devices(session.devices, mode=session.vphone_mode) as devices, show(False) as events:
        runner.events = events
        runner.run(devices)
