"""The [venue] settings: defaults off, one-line errors naming the file and key."""
from __future__ import annotations

import pytest

from tablehub.config import ConfigError, load_config


def write(tmp_path, body: str):
    path = tmp_path / "tablehub.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_off_by_default():
    cfg = load_config(None, environ={})
    assert not cfg.venue.enabled and cfg.venue.broker == ""


def test_a_full_venue_table(tmp_path):
    ca = tmp_path / "ca.crt"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    cfg = load_config(write(tmp_path, f'[venue]\nbroker = "venue.local"\nvenue = "cafe"\ntable = "t3"\n'
                                      f'username = "t3"\npassword = "pw"\ntls = true\nca_file = "{ca}"\n'), environ={})
    v = cfg.venue
    assert v.enabled and (v.broker, v.broker_port, v.venue, v.table, v.username, v.tls) == \
        ("venue.local", 8883, "cafe", "t3", "t3", True)


def test_the_table_defaults_to_the_host_name(tmp_path):
    cfg = load_config(write(tmp_path, '[venue]\nbroker = "venue.local"\nvenue = "cafe"\n'), environ={})
    assert cfg.venue.table and cfg.venue.broker_port == 1883


@pytest.mark.parametrize("body, message", [
    ('broker = "b"', r"\[venue\] venue = '': must not be empty"),
    ('broker = "b"\nvenue = "café du port"', r"\[venue\] venue = 'café du port': must be 1 to 64 letters"),
    ('broker = "b"\nvenue = "cafe"\ntable = "t/1"', r"\[venue\] table = 't/1'"),
    ('broker = "b"\nvenue = "cafe"\nport = 70000', r"\[venue\] port: expected a TCP port from 1 to 65535 .*got 70000"),
    ('broker = "b"\nvenue = "cafe"\npassword = "x"', r"\[venue\] password is set but username is empty"),
    ('broker = "b"\nvenue = "cafe"\ntls = true\nca_file = "/nope.crt"',
     r"\[venue\] ca_file = '/nope.crt': no such file"),
    ('broker = "b"\nvenue = "cafe"\nca_file = "x"', r"ca_file is set but tls is false"),
    ('broker = "b"\nvenue = "cafe"\ntls = "yes"', r"\[venue\] tls: expected true or false, got 'yes'"),
    ('broker = "b"\nvenue = "cafe"\nhost = "x"', r"\[venue\]: unknown key 'host'"),
    ('broker = "a b"\nvenue = "cafe"', r"\[venue\] broker = 'a b': expected a host name"),
])
def test_mistakes_are_one_line_naming_the_file_and_key(tmp_path, body, message):
    path = write(tmp_path, "[venue]\n" + body + "\n")
    with pytest.raises(ConfigError, match=message) as exc:
        load_config(path, environ={})
    assert "\n" not in str(exc.value) and str(path) in str(exc.value)


def test_the_command_line_says_one_line_too(tmp_path, capsys):
    from tablehub.cli import main

    path = write(tmp_path, '[venue]\nbroker = "b"\nvenue = "no way"\n')
    assert main(["run", "--config", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tablehub run: ") and "[venue] venue = 'no way'" in err and "\n" not in err
    assert main(["venue", "--broker", "b", "--listen", "nowhere"]) == 2
    assert "--listen 'nowhere': expected ADDRESS:PORT" in capsys.readouterr().err
