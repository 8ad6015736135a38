"""A live-model run records every model call to RUN_DIR/llm_cassette.jsonl, and `--model cassette:PATH`
replays it to the same results without the endpoint."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from typer.testing import CliRunner

from masbench.cli import app

DATA = Path(__file__).parent / "data" / "tasks"
COMMON = ["--tasks-dir", str(DATA), "--kb", str(DATA / "kb"), "--vphone-mode", "thread", "--devices", "vphone:1",
          "--no-screens", "--tasks", "settings-01", "--agent", "t3a"]  # fmt: skip
REPLIES = [
    'Reason: open it first.\nAction: {"action_type": "open_app", "app_name": "Settings"}',
    'Reason: done.\nAction: {"action_type": "status", "goal_status": "complete"}',
]


class _Chat(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint that answers with a fixed script."""

    calls = 0

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["Content-Length"]))
        text = REPLIES[min(_Chat.calls, len(REPLIES) - 1)]
        _Chat.calls += 1
        body = json.dumps(
            {
                "choices": [{"message": {"content": text}}],
                "usage": {"prompt_tokens": 100, "completion_tokens": 10},
            }
        )
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args) -> None:
        pass


def test_live_run_is_recorded_and_replays_to_the_same_results(tmp_path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Chat)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        model = f"openai:test-model@http://127.0.0.1:{server.server_port}/v1"
        live = CliRunner().invoke(app, ["run", *COMMON, "--model", model, "--out", str(tmp_path / "live")])
    finally:
        server.shutdown()
    assert live.exit_code == 0, live.output
    cassette = tmp_path / "live" / "llm_cassette.jsonl"
    assert len(cassette.read_text().splitlines()) == _Chat.calls == 3  # open_app, its summary, finish

    replay = CliRunner().invoke(
        app, ["run", *COMMON, "--model", f"cassette:{cassette}", "--out", str(tmp_path / "replay")]
    )
    assert replay.exit_code == 0, replay.output
    assert not (tmp_path / "replay" / "llm_cassette.jsonl").exists()  # a replay records nothing new

    def rows(run: str) -> list[dict]:
        keep = ("task_id", "success", "steps", "gui_actions", "invalid_steps", "end_reason", "check_details")
        lines = (tmp_path / run / "results.jsonl").read_text().splitlines()
        return [
            {k: json.loads(line)[k] for k in keep}
            | {"tokens": json.loads(line)["agent_usage"]["input_tokens"]}
            for line in lines
        ]

    assert rows("live") == rows("replay")
    assert rows("live")[0]["tokens"] == 300
