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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from masbench.actions import ShortcutAction
from masbench.catalog import APPS
from masbench.shortcuts import KnowledgeBase, Shortcut

if TYPE_CHECKING:
    from masbench.device import Observation
    from masbench.tasks import Task, TaskView

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


class OffersShortcuts:
    """Mixin for the MAS agents: keeps a retriever per KB (built once, reused across tasks) and picks
    the shortcuts to offer on each screen from the task's instruction, the screen's text and its app."""

    kb: KnowledgeBase | None
    task: TaskView

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._retriever: ShortcutRetriever | None = None

    def reset(self, task: TaskView, kb: KnowledgeBase | None, *, seed: int = 0) -> None:
        super().reset(task, kb, seed=seed)  # type: ignore[misc]
        if self.kb is None:
            self._retriever = None
        elif self._retriever is None or self._retriever.kb is not self.kb:
            self._retriever = ShortcutRetriever(self.kb)

    def offered(self, observation: Observation) -> list[Shortcut]:
        """The shortcuts to show on this screen (none without a KB)."""
        if self._retriever is None:
            return []
        screen = " ".join(f"{el.text} {el.content_desc}" for el in observation.elements)
        return self._retriever.retrieve(
            self.task.instruction, screen, observation.package, k=SHORTCUTS_OFFERED
        )
