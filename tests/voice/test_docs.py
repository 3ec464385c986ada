"""docs/voice.md: its Python example runs and prints what it says; README links it; the example
settings file and the docs name the same [voice] keys as the code."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from tablehub.config import VoiceConfig

DOC = Path(__file__).resolve().parents[2] / "docs" / "voice.md"


def test_the_python_example_runs(recorder, capsys):
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    exec(compile(code, str(DOC), "exec"), {})
    assert capsys.readouterr().out.splitlines() == ["Red scores 10 for finished area of 5 tiles.", "Blue to play."]
    assert recorder() == ["Red scores 10 for finished area of 5 tiles.", "Blue to play."]


def test_every_key_is_documented_and_in_the_example_settings():
    doc = DOC.read_text()
    example = (DOC.parents[1] / "firmware_config" / "tablehub.toml").read_text().split("[voice]")[1].split("\n[")[0]
    for f in dataclasses.fields(VoiceConfig):
        assert f"| `{f.name}` |" in doc, f"docs/voice.md: no row for {f.name}"
        assert re.search(rf"^#? ?{f.name} = ", example, re.M), f"firmware_config/tablehub.toml: no [voice] {f.name}"
    assert "docs/voice.md" in (DOC.parents[1] / "README.md").read_text()
