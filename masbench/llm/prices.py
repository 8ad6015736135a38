"""Turn token counts into dollars, so results can report the cost of a run next to its success rate.

Built-in prices are the Gemini API's paid-tier list prices in USD per 1M tokens (prompts up to 200k tokens;
thinking tokens are billed as output), as published in late 2025. Prices change: override or extend them with
a YAML/JSON file, passed to `load_prices` or named by `MASBENCH_PRICES`::

    gemini-2.5-pro: {input_usd_per_1m: 1.25, output_usd_per_1m: 10.0}
    my-local-vllm-model: {input_usd_per_1m: 0, output_usd_per_1m: 0}

A model without a price has unknown cost (None), never a silent $0.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, NonNegativeFloat, ValidationError

from masbench.llm.base import LLMConfigError

PRICES_ENV = "MASBENCH_PRICES"


class Price(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    input_usd_per_1m: NonNegativeFloat
    output_usd_per_1m: NonNegativeFloat


PriceTable = dict[str, Price]

BUILTIN_PRICES: PriceTable = {
    name: Price(input_usd_per_1m=i, output_usd_per_1m=o)
    for name, i, o in [
        ("gemini-3-pro-preview", 2.00, 12.00),
        ("gemini-3-flash-preview", 0.50, 3.00),
        ("gemini-2.5-pro", 1.25, 10.00),
        ("gemini-2.5-flash", 0.30, 2.50),
        ("gemini-2.5-flash-lite", 0.10, 0.40),
        ("gemini-2.0-flash", 0.10, 0.40),
        ("gemini-2.0-flash-lite", 0.075, 0.30),
    ]
}


def load_prices(path: str | Path | None = None) -> PriceTable:
    """Built-in prices overridden by the file at `path`, else by the file `MASBENCH_PRICES` names."""
    path = path or os.environ.get(PRICES_ENV)
    return _load(str(path)) if path else BUILTIN_PRICES


@functools.cache
def _load(path: str) -> PriceTable:
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as e:
        raise LLMConfigError(f"{path}: cannot read price table: {e}") from None
    if not isinstance(data, dict):
        raise LLMConfigError(f"{path}: price table must map model names to prices")
    table = dict(BUILTIN_PRICES)
    for model, entry in data.items():
        try:
            table[str(model)] = Price.model_validate(entry)
        except ValidationError as e:
            problems = "; ".join(
                f"{'.'.join(map(str, err['loc'])) or 'entry'}: {err['msg']}" for err in e.errors()
            )
            raise LLMConfigError(f"{path}: model {model}: {problems}") from None
    return table


def price_for(model: str, prices: PriceTable) -> Price | None:
    """Exact name, else the longest listed name it extends (`gemini-2.5-flash-preview-09-2025` → flash)."""
    model = model.removeprefix("models/")
    if model in prices:
        return prices[model]
    prefixes = [name for name in prices if model.startswith(name + "-")]
    return prices[max(prefixes, key=len)] if prefixes else None


def cost_usd(
    model: str, input_tokens: int, output_tokens: int, prices: PriceTable | None = None
) -> float | None:
    price = price_for(model, load_prices() if prices is None else prices)
    if price is None:
        return None
    return (input_tokens * price.input_usd_per_1m + output_tokens * price.output_usd_per_1m) / 1_000_000
