"""Comparing replay output the way ../shared/tools/check_records.py and RULES.md (Decisions, Output) do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def normalise(answer: dict[str, Any]) -> dict[str, Any]:
    """The replay output with every unordered part in a canonical order (check_records.py's rules)."""
    answer = json.loads(json.dumps(answer))
    state = answer.get("state") or {}
    if state:
        state["hands"] = [sorted(hand) for hand in state.get("hands", [])]
        state["out"] = sorted(state.get("out", []))
        state["table"] = sorted(json.dumps(pair, sort_keys=True) for pair in state.get("table", []))
        if answer.get("finished"):
            state.pop("attacker", None)
            state.pop("defender", None)
    result = answer.get("result") or {}
    if result.get("losing_team"):
        result["losing_team"] = sorted(result["losing_team"])
    if result.get("epaulettes"):
        result["epaulettes"]["cards"] = sorted(result["epaulettes"]["cards"])
    return answer


def record_names(folder: Path) -> list[str]:
    return sorted(p.name[: -len(".json")] for p in folder.glob("*.json") if not p.name.endswith(".expected.json"))
