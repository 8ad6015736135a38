"""Agents and their registry: `make_agent(name, model)` builds one; `AGENTS` describes them all.

Model agents default to `gemini-2.5-pro`, the model the paper ran every framework on, so a plain
`masbench run --agent t3a` reproduces its setting; `--model` picks another (`gemini-2.5-flash`,
`openai:MODEL@URL`, `cassette:PATH`, `scripted:PATH`). `record_to` records every model call of a live run
to a cassette that `--model cassette:PATH` replays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .androidworld import lenient
from .base import Agent, AgentStep
from .human import HumanAgent
from .llm_agent import DEFAULT_MODEL, LLMAgent
from .m3a import M3AAgent
from .mas_mobileagent import MasMobileAgent, MasMobileAgentTree
from .mas_t3a import MasT3AAgent
from .mobileagent_e import MobileAgentE
from .mobileagent_v2 import MobileAgentV2, MobileAgentV2Tree
from .oracle import OracleAgent, OracleGuiAgent
from .random_agent import RandomAgent
from .t3a import T3AAgent

Factory = Callable[..., Agent]  # factory(model, *, record_to=None) -> Agent


@dataclass(frozen=True)
class AgentSpec:
    name: str
    description: str
    needs_model: bool
    uses_shortcuts: bool
    factory: Factory
    default_model: str | None = None
    learns: bool = False  # keeps a memory from task to task (the runner plays its tasks in order)


def _offline(cls: type[Agent]) -> AgentSpec:
    return AgentSpec(cls.name, cls.description, False, cls.uses_shortcuts, lambda model, **_: cls())


def model_agent(cls: type[LLMAgent]) -> AgentSpec:
    """The registry entry of a model-driven agent class."""
    return AgentSpec(
        cls.name,
        cls.description,
        True,
        cls.uses_shortcuts,
        lambda model, record_to=None: cls(model, record_to=record_to),
        cls.default_model,
        cls.learns,
    )


AGENTS: dict[str, AgentSpec] = {
    spec.name: spec
    for spec in (
        model_agent(T3AAgent),
        model_agent(M3AAgent),
        model_agent(MasT3AAgent),
        model_agent(lenient(T3AAgent)),
        model_agent(lenient(M3AAgent)),
        model_agent(lenient(MasT3AAgent)),
        model_agent(MobileAgentV2),
        model_agent(MobileAgentV2Tree),
        model_agent(MobileAgentE),
        model_agent(MasMobileAgent),
        model_agent(MasMobileAgentTree),
        _offline(OracleAgent),
        _offline(OracleGuiAgent),
        _offline(RandomAgent),
        _offline(HumanAgent),
    )
}


def make_agent(name: str, model: str | None = None, *, record_to: Path | None = None) -> Agent:
    """Build agent `name` on `model` (its default when None); model agents raise `LLMConfigError` here
    when the model cannot be set up. `record_to` records a model agent's calls to that cassette."""
    try:
        spec = AGENTS[name]
    except KeyError:
        raise ValueError(f"unknown agent {name!r}; available: {', '.join(AGENTS)}") from None
    return spec.factory(model or spec.default_model, record_to=record_to)


__all__ = ["AGENTS", "DEFAULT_MODEL", "Agent", "AgentSpec", "AgentStep", "LLMAgent", "make_agent"]
