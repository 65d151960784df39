"""Test-suite settings shared by every folder.

``gnugo_executable``: the one GNU Go fixture. A test that plays GNU Go takes it (or
``@pytest.mark.usefixtures("gnugo_executable")``); without GNU Go the test is skipped, saying so.

In CI (``CI`` set, as ``.ci/run`` does) a test that would skip because GNU Go or Chromium is not
installed fails instead: the Go tests that need GNU Go and the report pages' browser test must
run there, never skip silently (``scripts/ensure-gnugo`` and ``scripts/ensure-chromium`` install
them first, and fail in CI when they cannot).

A run of the whole suite compiles every domain's kernels into numba's cache in a second process
while the first tests run (:func:`pytest_collection_finish`): pytest runs the tests one at a time,
and on a fresh clone their first calls compiled the kernels one after the other on one core
(about 110 CPU-s) while the other core was idle. The tests then load the kernels from the cache.
"""

import os
import subprocess
import sys

import pytest

from mctslab.go import gnugo

GNUGO_MISSING = "GNU Go is not installed"
CHROMIUM_MISSING = "Chromium is not installed"
REQUIRED_IN_CI = (GNUGO_MISSING, CHROMIUM_MISSING)


@pytest.fixture(scope="session")
def gnugo_executable() -> str:
    """GNU Go's executable (:func:`mctslab.go.gnugo.find_gnugo`); a skip naming what is missing
    when there is none, which CI turns into a failure (below)."""
    try:
        return gnugo.find_gnugo()
    except gnugo.GnuGoNotFound as exc:
        pytest.skip(f"{GNUGO_MISSING}: {exc}")


def _in_ci() -> bool:
    return bool(os.environ.get("CI"))


def _required_skip(report) -> str | None:
    """The missing tool's message when ``report`` is a skip for want of a tool CI must have."""
    if not report.skipped:
        return None
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    return next((missing for missing in REQUIRED_IN_CI if missing in str(reason)), None)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    missing = _in_ci() and _required_skip(report)
    if missing:
        report.outcome = "failed"
        report.longrepr = f"{missing}, and CI is set: this test must run in CI"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    report = outcome.get_result()
    missing = _in_ci() and _required_skip(report)
    if missing:
        report.outcome = "failed"
        report.longrepr = f"{missing}, and CI is set: {collector.nodeid} must run in CI"


# Compile ahead for a run of this many tests or more (the whole suite is over 1,000): a run of
# one file should not pay for every domain's kernels.
WARM_UP_AHEAD_FROM = 300
# every domain of mctslab.DOMAINS, go first: tests/core runs first and needs few kernels;
# tests/go comes next
WARM_UP_AHEAD = ("import mctslab; "
                 "mctslab.warmup(tuple(sorted(mctslab.DOMAINS, key=lambda d: d != 'go')))")
_warming: list[subprocess.Popen] = []


def pytest_collection_finish(session):
    if len(session.items) >= WARM_UP_AHEAD_FROM and not os.environ.get("MCTSLAB_NO_WARM_UP"):
        _warming.append(subprocess.Popen([sys.executable, "-c", WARM_UP_AHEAD],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))


def pytest_sessionfinish(session, exitstatus):
    for process in _warming:
        if process.poll() is None:
            process.kill()
        process.wait()
