"""Under CI=true no test may skip: a skip there means a service or tool that CI must provide is missing.

Without CI a test that needs PostgreSQL, Redis or Chromium skips and says why (pytest -ra prints it);
under CI=true the same skip is reported as a failure carrying that reason. Expected failures (xfail)
are left alone: they are declared, not skipped.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest


def skips_are_failures() -> bool:
    return os.environ.get("CI") == "true"


def _skip_reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    longrepr: Any = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2])
    return str(longrepr)


def _fail_if_skipped(report: pytest.TestReport | pytest.CollectReport) -> None:
    if skips_are_failures() and report.skipped and not hasattr(report, "wasxfail"):
        reason = _skip_reason(report)
        report.outcome = "failed"
        report.longrepr = f"skipped under CI=true, where nothing may skip: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    _fail_if_skipped(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    _fail_if_skipped(outcome.get_result())
