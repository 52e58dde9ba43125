"""Under CI=true a skipped test fails, so a missing service can never pass unnoticed."""

from __future__ import annotations

import pytest

SKIPPING_TESTS = """
import pytest

def test_needs_a_service():
    pytest.skip("Redis does not answer")

@pytest.fixture
def service():
    pytest.skip("no PostgreSQL")

def test_needs_a_fixture_service(service):
    pass

@pytest.mark.xfail(reason="declared, not skipped")
def test_known_bug():
    assert False

def test_plain():
    pass
"""

SKIPPING_MODULE = """
import pytest

pytest.skip("no Chromium", allow_module_level=True)

def test_never_collected():
    pass
"""


def _run(pytester: pytest.Pytester, source: str) -> pytest.RunResult:
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_inner=source)
    return pytester.runpytest(
        "-p", "tests.ci_enforcement", "-p", "no:django", "-p", "no:cacheprovider", "-rA",
        "-W", "ignore::pytest.PytestAssertRewriteWarning",
    )  # fmt: skip


def test_without_ci_a_missing_service_skips_with_its_reason(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CI", raising=False)
    result = _run(pytester, SKIPPING_TESTS)
    result.assert_outcomes(passed=1, skipped=2, xfailed=1)
    result.stdout.fnmatch_lines(["*Redis does not answer*", "*no PostgreSQL*"])
    assert result.ret == 0


def test_under_ci_every_skip_fails_with_its_reason(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    result = _run(pytester, SKIPPING_TESTS)
    result.assert_outcomes(passed=1, failed=1, errors=1, xfailed=1)
    result.stdout.fnmatch_lines(["*nothing may skip*Redis does not answer*"])
    result.stdout.fnmatch_lines(["*nothing may skip*no PostgreSQL*"])
    assert result.ret != 0


def test_under_ci_a_skipped_module_fails_the_run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    result = _run(pytester, SKIPPING_MODULE)
    result.stdout.fnmatch_lines(["*nothing may skip*no Chromium*"])
    assert result.ret != 0

    monkeypatch.delenv("CI")
    result = _run(pytester, SKIPPING_MODULE)
    result.assert_outcomes(skipped=1)


def test_an_expected_failure_that_passes_fails_the_run(
    request: pytest.FixtureRequest, pytester: pytest.Pytester
) -> None:
    """The project's configuration makes every xfail strict (pyproject.toml), so one that passes is a failure."""
    assert request.config.getini("xfail_strict") is True
    pytester.makeini("[pytest]\nxfail_strict = true\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_inner="import pytest\n\n@pytest.mark.xfail(reason='fixed')\ndef test_fixed():\n    pass\n")
    result = pytester.runpytest("-p", "no:django", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
