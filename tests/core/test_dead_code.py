"""Issue 26 item 5: no dead code in asobiba/ (vulture), entry points whitelisted.

Vulture reads asobiba/ with tests/ and bench/ (a name they use is alive) and
lint/vulture_whitelist.py (entry points and names frameworks call, one reason per group);
only findings inside asobiba/ count. Confidence 60 is vulture's lowest: unused functions,
methods, classes and attributes are only ever reported at 60% (a name may be reached
dynamically), so a higher threshold would leave just unused imports and variables, which
ruff already reports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WHITELIST = ROOT / "lint" / "vulture_whitelist.py"


def test_no_unused_code_in_asobiba() -> None:
    pytest.importorskip("vulture")
    proc = subprocess.run(
        [sys.executable, "-m", "vulture", "asobiba", "tests", "bench", str(WHITELIST),
         "--min-confidence", "60"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode in (0, 3), proc.stderr  # 3: dead code found
    unused = [line for line in proc.stdout.splitlines() if line.startswith("asobiba/")]
    assert not unused, ("unused code (remove it, or whitelist it in lint/vulture_whitelist.py "
                        "with who uses it):\n" + "\n".join(unused))
