"""``companion bench engine`` reports rates from real runs."""

import json
import subprocess
import sys


def test_bench_engine_reports_games_per_second():
    command = [sys.executable, "-m", "companion", "bench", "engine", "--games", "30", "--json"]
    figures = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    assert figures["games"] == 30 and figures["rules"] == "brisca-2"
    assert figures["scored_per_cpu_second"] > 0 and figures["simulated_per_cpu_second"] > 0


def test_bench_refuses_zero_games():
    command = [sys.executable, "-m", "companion", "bench", "engine", "--games", "0"]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 2 and "--games must be at least 1, not 0" in done.stderr
