"""The documentation's examples run and print what the docs say."""
import json
import re
from pathlib import Path

import pytest

from tablehub.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_example_record_scores(path, capsys):
    assert main(["score", str(path)]) == 0
    assert "Totals:" in capsys.readouterr().out or "position" in json.loads(path.read_text())


def test_the_records_page_shows_real_output(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "records.md").read_text()
    block = re.search(r"```\n\$ tablehub score (\S+)\n(.*?)\n\$", text, re.S)
    assert block, "records.md lost its example"
    assert main(["score", block.group(1)]) == 0
    assert capsys.readouterr().out.strip() == block.group(2).strip()


def test_the_example_record_in_the_docs_is_the_file(monkeypatch):
    text = (ROOT / "docs" / "records.md").read_text()
    shown = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    assert shown == json.loads((ROOT / "docs" / "examples" / "neuesland-short.json").read_text())


def test_every_error_example_in_the_docs_is_what_the_command_prints(capsys, monkeypatch):
    """docs/records.md and docs/catalogs.md show bad files (docs/examples/bad) and the line each one gets."""
    monkeypatch.chdir(ROOT)
    shown = []
    for page in ("records.md", "catalogs.md"):
        text = (ROOT / "docs" / page).read_text()
        shown += re.findall(r"```\n\$ tablehub score (docs/examples/bad/\S+)\n(tablehub score: .*)\n```", text)
    assert len(shown) >= 6
    for path, line in shown:
        assert main(["score", path]) == 2
        assert capsys.readouterr().err.strip() == line
