"""Evaluation: run agents on tasks over devices (`runner`, `episode`), decide success (the task's check
or the LLM `judge`), record what happened (`records`) and summarise it (`metrics`, `table`, `html`).

The top of the library: it may use every other layer, and nothing below imports it.
"""
