"""The load check runs end to end with a few watchers and reports every update delivered."""

from __future__ import annotations

import json

import pytest

from webui import loadcheck


@pytest.mark.slow
def test_load_check_reports_delays_and_costs(capsys: pytest.CaptureFixture[str]) -> None:
    assert loadcheck.main(["--clients", "3", "--interval", "0.01", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["every_client_saw_the_end"]
    assert 3 <= report["updates_received"] <= report["updates_expected"] == 3 * report["events"]
    assert 0 <= report["update_delay_ms"]["median"] <= report["update_delay_ms"]["max"] < 1000
    assert report["apply_ms_with_watchers"]["median"] > 0
