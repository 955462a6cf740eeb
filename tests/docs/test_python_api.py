"""docs/python-api.md is true (issue 18 item 6): its examples run as doctests, and its
tables of actions and observation fields match the code."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from asobiba.envs.codec import markdown
from asobiba.games import GAME_IDS, get

DOC = Path(__file__).resolve().parents[2] / "docs" / "python-api.md"
README = Path(__file__).resolve().parents[2] / "README.md"


def test_python_api_examples_run() -> None:
    # no option flags: the file must pass as written, under `python -m doctest` and
    # `pytest --doctest-glob` alike (each example declares the options it needs)
    result = doctest.testfile(str(DOC), module_relative=False, optionflags=0)
    assert result.attempted > 40
    assert result.failed == 0


def test_field_tables_match_the_encodings() -> None:
    text = DOC.read_text(encoding="utf-8")
    for gid in GAME_IDS:
        m = re.search(rf"<!-- fields:{gid} -->\n(.*?)\n<!-- /fields -->", text, re.DOTALL)
        assert m, f"docs/python-api.md has no field table for {gid}"
        assert m.group(1) == markdown(get(gid)), (
            f"{gid}: regenerate the table with python -m asobiba.envs.codec")


def test_readme_five_lines_run() -> None:
    text = README.read_text(encoding="utf-8")
    block = re.search(r"```python\n(>>> .*?)```", text, re.DOTALL)
    assert block, "README.md shows the five-line Python example"
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.group(1), {}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert len(test.examples) >= 4
