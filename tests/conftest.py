"""Test-suite settings shared by every folder.

In CI (``CI`` set, as ``.ci/run`` does) a test that would skip because GNU Go is not installed
fails instead: the Go tests that need GNU Go must run there, never skip silently
(``scripts/ensure-gnugo`` installs GNU Go first, and fails in CI when it cannot).
"""

import os

import pytest

GNUGO_MISSING = "GNU Go is not installed"


def _in_ci() -> bool:
    return bool(os.environ.get("CI"))


def _gnugo_skip(report) -> bool:
    if not report.skipped:
        return False
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    return GNUGO_MISSING in str(reason)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if _in_ci() and _gnugo_skip(report):
        report.outcome = "failed"
        report.longrepr = f"{GNUGO_MISSING}, and CI is set: this test must run in CI"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    if _in_ci() and _gnugo_skip(report):
        report.outcome = "failed"
        report.longrepr = f"{GNUGO_MISSING}, and CI is set: {collector.nodeid} must run in CI"
