"""Settings: file, environment and command line, with one-line errors."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tablehub.config import Config, ConfigError, default_data_dir, load_config


def test_the_environment_picks_backends_like_gpiozero(tmp_path):
    cfg = load_config(None, environ={"TABLEHUB_CAMERA": "replay", "TABLEHUB_CAMERA_PATH": "/x",
                                     "TABLEHUB_PINS": "mock", "TABLEHUB_DATA": str(tmp_path)})
    assert (cfg.camera.source, cfg.camera.path, cfg.pins.backend) == ("replay", "/x", "mock")
    assert cfg.db_path == tmp_path / "games.sqlite"


def test_a_file_sets_sections_and_the_environment_wins(tmp_path):
    p = tmp_path / "t.toml"
    p.write_text('[camera]\nsource = "opencv"\nfps = 4\n[web]\nport = 9000\n')
    cfg = load_config(p, environ={"TABLEHUB_CAMERA": "sim"})
    assert cfg.camera.source == "sim" and cfg.camera.fps == 4.0 and cfg.web.port == 9000


@pytest.mark.parametrize("text, expected", [
    ('[camera]\nsorce = "sim"\n', "[camera]: unknown key 'sorce' (expected: fps, height"),
    ('[camra]\n', "unknown section 'camra' (expected: camera, data_dir"),
    ('[web]\nport = "eighty"\n', "[web] port: expected a TCP port from 1 to 65535 (0: any free port), got 'eighty'"),
    ('[camera]\nsource = "webcam"\n', "[camera] source: expected one of 'auto', 'picamera2'"),
    ('[web\n', "not valid TOML"),
])
def test_mistakes_name_the_file_and_key(tmp_path, text, expected):
    p = tmp_path / "bad.toml"
    p.write_text(text)
    with pytest.raises(ConfigError, match=None) as err:
        load_config(p, environ={})
    assert expected in str(err.value) and "\n" not in str(err.value)


def test_data_lives_in_var_inside_a_checkout_else_in_xdg_or_systemd_state(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "tablehub").mkdir()
    assert default_data_dir({}, cwd=tmp_path) == tmp_path / "var"
    assert default_data_dir({"XDG_DATA_HOME": "/xdg"}, cwd=tmp_path / "tablehub").as_posix() == "/xdg/tablehub"
    assert default_data_dir({"STATE_DIRECTORY": "/var/lib/tablehub"}).as_posix() == "/var/lib/tablehub"


def test_the_example_settings_file_is_all_known_keys_with_the_values_it_says(tmp_path):
    """firmware_config/tablehub.toml (installed as /etc/tablehub/tablehub.toml) stays in step with the code."""
    repo = Path(__file__).resolve().parents[2]
    text = (repo / "firmware_config" / "tablehub.toml").read_text()
    text = text.replace("/etc/tablehub/pins.toml", str(repo / "firmware_config" / "pins.toml"))
    example = tmp_path / "tablehub.toml"
    example.write_text(text)
    cfg = load_config(example, environ={})
    assert (cfg.camera.source, cfg.web.port, cfg.web.threads) == ("picamera2", 80, Config().web.threads)
    section = None
    for line in text.splitlines():  # a commented-out key must be a real setting, ready to uncomment
        if line.startswith("["):
            section = line.strip("[]")
        elif section and re.match(r"# [a-z_]+ += ", line):
            key = line[2:].split("=")[0].strip()
            assert hasattr(getattr(cfg, section), key), f"example file: [{section}] {key} is not a setting"
