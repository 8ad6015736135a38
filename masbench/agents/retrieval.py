"""Choose the few shortcuts worth offering for a task and screen, so a prompt does not carry the whole KB.

A lexical scorer, no external models: BM25 of the instruction (and, more weakly, of the visible screen
text) against each shortcut's name, description, parameters and app names, plus a boost for the apps
the instruction names and for the app in front. Scores are normalised per query so the boosts mean the
same for a short instruction and a long one. `scripts/bench_retrieval.py` measures its recall against
the shortcuts of the tasks' hybrid reference solutions.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from masbench.actions import ShortcutAction
from masbench.catalog import APPS
from masbench.shortcuts import KnowledgeBase, Shortcut
from masbench.tasks import Task

if TYPE_CHECKING:
    from masbench.actions import Action
    from masbench.device import Observation, UIElement
    from masbench.tasks import TaskView
    from masbench.trajectory import StepRecord

    from .base import AgentStep, PastStep

K1, B = 1.2, 0.75
SCREEN_WEIGHT = 0.3  # screen text is noisy: it helps to order, not to decide
NAMED_APP_BOOST = 0.6
LIKELY_APP_BOOST = 0.3  # no app named: the app whose shortcuts match best is probably the one
FOREGROUND_BOOST = 0.25
SEARCH_PRIOR = 0.15  # nearly every task finds something first, so search entry points are rarely wrong
NAME_REPEAT = 2  # name words say what a shortcut does more reliably than its prose

# fmt: off
STOPWORDS = frozenset({
    "a", "an", "the", "and", "or", "of", "to", "in", "on", "at", "for", "from", "by", "with", "into",
    "onto", "as", "is", "are", "be", "been", "it", "its", "this", "that", "these", "those", "my", "me", "i",
    "you", "your", "we", "our", "us", "he", "she", "they", "them", "his", "her", "their", "then", "than",
    "so", "if", "but", "not", "no", "do", "does", "did", "can", "could", "would", "should", "will", "shall",
    "may", "might", "must", "please", "want", "need", "some", "any", "all", "each", "every", "one", "up",
    "out", "over", "about", "after", "before", "more", "most", "very", "also", "just", "only", "there",
    "here", "what", "which", "who", "whom", "how", "when", "where", "why", "e", "g", "eg", "etc", "via",
    "per",
})
# fmt: on
_WORD = re.compile(r"[a-z0-9]+")


def stem(word: str) -> str:
    """A light suffix stripper: 'searching', 'searches' and 'searched' all become 'search'."""
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + keep
    return word


def tokens(text: str) -> list[str]:
    """Lower-case word stems without stop words; `search_product` and `searchProduct` split alike."""
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text).lower().replace("_", " ")
    return [stem(w) for w in _WORD.findall(text) if w not in STOPWORDS]


def _app_names(app: str) -> set[str]:
    """Words by which a task names an app: its short name, launcher label and common aliases."""
    info = APPS.get(app)
    names = {app}
    if info is not None:
        names |= {info.label, *info.aliases}
    return {" ".join(_WORD.findall(n.lower())) for n in names} - {""}


def _document(shortcut: Shortcut) -> list[str]:
    params = " ".join(
        f"{p.name} {p.description} {' '.join(str(v) for v in p.enum or [])}" for p in shortcut.parameters
    )
    apps = " ".join(_app_names(shortcut.app))
    return [
        *tokens(shortcut.name) * NAME_REPEAT,
        *tokens(shortcut.description),
        *tokens(params),
        *tokens(apps),
    ]


@dataclass(frozen=True)
class Scored:
    shortcut: Shortcut
    score: float


class ShortcutRetriever:
    """BM25 over a knowledge base, built once per KB and queried once per step."""

    def __init__(self, kb: KnowledgeBase | Iterable[Shortcut]) -> None:
        self.kb = kb
        self.shortcuts = list(kb)
        self._docs = [Counter(_document(s)) for s in self.shortcuts]
        self._lengths = [sum(d.values()) for d in self._docs]
        self._avg = sum(self._lengths) / len(self._lengths) if self._lengths else 1.0
        df = Counter(term for doc in self._docs for term in doc)
        n = len(self._docs)
        self._idf = {t: math.log(1 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        self._app_names = {app: _app_names(app) for app in {s.app for s in self.shortcuts}}

    def retrieve(
        self, instruction: str, screen_text: str = "", package: str | None = None, k: int = 8
    ) -> list[Shortcut]:
        """The `k` best shortcuts for this instruction and screen, best first (ties in KB order)."""
        return [s.shortcut for s in self.scores(instruction, screen_text, package)[:k]]

    def scores(self, instruction: str, screen_text: str = "", package: str | None = None) -> list[Scored]:
        """Every shortcut with its score, best first."""
        task = self._bm25(tokens(instruction))
        screen = self._bm25(tokens(screen_text))
        named = self.named_apps(instruction)
        likely = set() if named else self._likely_apps(task)
        ranked = []
        for i, shortcut in enumerate(self.shortcuts):
            score = task[i] + SCREEN_WEIGHT * screen[i]
            score += NAMED_APP_BOOST * (shortcut.app in named) + LIKELY_APP_BOOST * (shortcut.app in likely)
            score += FOREGROUND_BOOST * (package is not None and shortcut.package == package)
            score += SEARCH_PRIOR * shortcut.name.startswith("search")
            ranked.append((score, -i, shortcut))
        ranked.sort(key=lambda t: (t[0], t[1]), reverse=True)
        return [Scored(s, round(score, 6)) for score, _, s in ranked]

    def named_apps(self, instruction: str) -> set[str]:
        """Apps the instruction mentions by name or alias ('Google Maps', 'Amazon', 'email')."""
        words = f" {' '.join(_WORD.findall(instruction.lower()))} "
        return {app for app, names in self._app_names.items() if any(f" {n} " in words for n in names)}

    def _likely_apps(self, scores: list[float]) -> set[str]:
        """The app(s) of the best-matching shortcut, when the instruction names none."""
        best = max(scores, default=0.0)
        if best <= 0:
            return set()
        return {s.app for s, score in zip(self.shortcuts, scores, strict=True) if score == best}

    def _bm25(self, query: list[str]) -> list[float]:
        """BM25 of each document for `query`, divided by the best, so 1.0 is the top match."""
        raw = []
        for doc, length in zip(self._docs, self._lengths, strict=True):
            norm = K1 * (1 - B + B * length / self._avg)
            raw.append(sum(self._idf[t] * doc[t] * (K1 + 1) / (doc[t] + norm) for t in query if t in doc))
        top = max(raw, default=0.0)
        return [r / top for r in raw] if top > 0 else raw


@dataclass
class Recall:
    """Recall@k of the reference shortcuts: `hits[k]` of `total` found in the top k, overall and per app."""

    total: int
    hits: dict[int, int]
    per_app: dict[str, tuple[int, dict[int, int]]]  # app → (total, hits per k)
    missing_from_kb: list[str]

    def at(self, k: int, app: str | None = None) -> float:
        total, hits = (self.total, self.hits) if app is None else self.per_app[app]
        return hits[k] / total if total else 0.0


def measure_recall(tasks: Iterable[Task], kb: KnowledgeBase, ks: Iterable[int] = (3, 5, 8)) -> Recall:
    """How many shortcuts of each task's hybrid reference solution the retriever offers at the start
    (instruction only, home screen), micro-averaged over (task, shortcut) pairs."""
    ks = sorted(set(ks))
    retriever = ShortcutRetriever(kb)
    recall = Recall(0, dict.fromkeys(ks, 0), {}, [])
    for task in tasks:
        gold = dict.fromkeys(s.name for s in task.solutions.hybrid if isinstance(s, ShortcutAction))
        ranked = [s.qualified_name for s in retriever.retrieve(task.instruction, k=max(ks, default=0))]
        for name in gold:
            app = name.split(".", 1)[0]
            total, hits = recall.per_app.setdefault(app, (0, dict.fromkeys(ks, 0)))
            recall.per_app[app] = (total + 1, hits)
            recall.total += 1
            if name not in kb:
                recall.missing_from_kb.append(f"{task.id}: {name}")
            for k in ks:
                if name in ranked[:k]:
                    recall.hits[k] += 1
                    hits[k] += 1
    return recall


SHORTCUTS_OFFERED = 8


def retrieve_for_screen(
    retriever: ShortcutRetriever, instruction: str, elements: Iterable[UIElement], package: str | None
) -> list[Shortcut]:
    """What the `retrieved` level offers on a screen: the best `SHORTCUTS_OFFERED` for the instruction,
    the screen's text and the app in front (also recomputed from saved screens by the diagnostics)."""
    screen = " ".join(f"{el.text} {el.content_desc}" for el in elements)
    return retriever.retrieve(instruction, screen, package, k=SHORTCUTS_OFFERED)


# What a MAS agent is offered (docs/metrics.md, after API-Bank's levels): the shortcuts its task's reference
# calls (Call), those retrieved for the task and screen (Retrieve+Call), or the whole KB (Plan+Retrieve+Call).
Exposure = Literal["oracle", "retrieved", "full"]
EXPOSURES: tuple[Exposure, ...] = ("oracle", "retrieved", "full")
NOT_OFFERED = "shortcut not offered"  # how a refused call's invalid step starts (diagnostics count them)


class OffersShortcuts:
    """Mixin for the MAS agents: picks the shortcuts to offer on each screen by its `exposure` (a retriever
    per KB, built once and reused across tasks, for `retrieved`) and refuses, as an invalid step, a call of
    a shortcut that was not offered in this episode."""

    kb: KnowledgeBase | None
    task: TaskView | Task
    exposure: Exposure = "retrieved"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._retriever: ShortcutRetriever | None = None
        self._reference: list[str] = []
        self._seen: set[str] = set()
        self.offered_now: set[str] | None = None  # names offered at the last step, None when none were shown

    def expose(self, exposure: Exposure) -> None:
        """Set the exposure level. `oracle` needs the reference's shortcut names, so the episode hands this
        agent the whole task; it keeps those names and works from the task's view like any agent."""
        self.exposure = exposure
        self.sees_solutions = exposure == "oracle"

    def reset(self, task: TaskView | Task, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        self._reference = task.shortcut_names() if isinstance(task, Task) else []
        self._seen = set()
        view = task.view() if isinstance(task, Task) else task
        super().reset(view, kb, seed=seed)  # type: ignore[misc]
        if self.kb is None:
            self._retriever = None
        elif self._retriever is None or self._retriever.kb is not self.kb:
            self._retriever = ShortcutRetriever(self.kb)

    def offered(self, observation: Observation) -> list[Shortcut]:
        """The shortcuts to show on this screen by the exposure level (none without a KB); each is callable
        from then on in the episode."""
        if self._retriever is None or self.kb is None:
            return []
        if self.exposure == "full":
            shown = list(self.kb)
        elif self.exposure == "oracle":
            shown = [s for name in dict.fromkeys(self._reference) if (s := self.kb.get(name)) is not None]
        else:
            shown = retrieve_for_screen(
                self._retriever, self.task.instruction, observation.elements, observation.package
            )
        self.offered_now = {s.qualified_name for s in shown}
        self._seen |= self.offered_now
        return shown

    def assume_history(self, past: list[PastStep]) -> None:
        """The agent's history written for it, and what an episode through `past` would have offered: the
        shortcuts shown on each past screen and those the past steps called."""
        super().assume_history(past)  # type: ignore[misc]
        for p in past:
            self.offered(p.before)
            if isinstance(p.action, ShortcutAction):
                self._seen.add(p.action.name)
        self.offered_now = None

    def step(self, observation: Observation, history: list[StepRecord]) -> AgentStep:
        """The agent's step, with a call of a shortcut not offered in this episode refused: an invalid step
        whose error starts with `NOT_OFFERED`, nothing executed."""
        self.offered_now = None  # a step that shows no prompt (v2's automatic Back) offers nothing
        result: AgentStep = super().step(observation, history)  # type: ignore[misc]
        refusal = self.refusal(result.action)
        return result if refusal is None else replace(result, action=None, error=refusal)

    def refusal(self, action: Action | None) -> str | None:
        """Why `action` may not run under this exposure level, None when it may: a KB shortcut offered in
        this episode, any KB shortcut under `full`. A name the KB lacks goes on to the executor, which
        refuses it as a failed call (bad arguments), whatever the level."""
        if not isinstance(action, ShortcutAction) or self.exposure == "full" or action.name in self._seen:
            return None
        if self.kb is None or action.name not in self.kb:
            return None
        return f"{NOT_OFFERED}: {action.name!r} was not among the shortcuts offered in this episode"
