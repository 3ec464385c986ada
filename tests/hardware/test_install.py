"""scripts/install-pi.sh: valid bash, a dry run shows the steps the Pi needs, and the file edits it
makes on the Pi (scripts/_pi.sh) do the right thing on copies of the files."""
from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install-pi.sh"
PI = ROOT / "scripts" / "_pi.sh"
DOCS = ROOT / "docs" / "raspberry-pi.md"


def pi(call: str, env: dict | None = None) -> str:
    """Run a function of scripts/_pi.sh in bash; its stdout."""
    return subprocess.run(["bash", "-c", f'set -euo pipefail; . "{PI}"; {call}'], capture_output=True, text=True,
                          check=True, timeout=60, env={**os.environ, **(env or {})}).stdout


def dry_run(*args: str) -> str:
    return subprocess.run(["bash", str(SCRIPT), "--dry-run", *args], capture_output=True, text=True,
                          timeout=60, check=True).stdout


def test_the_scripts_are_valid_bash():
    for script in ("install-pi.sh", "_pi.sh", "_venv.sh", "demo", "test", "rehearse-arm64.sh"):
        subprocess.run(["bash", "-n", str(ROOT / "scripts" / script)], check=True)


def test_a_dry_run_installs_picamera2_keeps_apts_numpy_and_enables_the_service():
    out = dry_run("--no-start")
    assert "python3-picamera2" in out and "python3-lgpio" in out
    assert "espeak-ng alsa-utils" in out, "the voice's synthesiser and aplay (docs/voice.md)"
    assert "venv --system-site-packages" in out
    assert "opencv-python-headless<4.12" in out and "--constraint" in out
    assert "usermod -aG video tablehub" in out
    assert "tablehub.avahi.service" in out and "systemctl enable tablehub.service" in out
    assert "systemctl restart" not in out, "--no-start leaves the service stopped"


def test_help_prints_a_usage_text_not_code():
    out = subprocess.run(["bash", str(SCRIPT), "--help"], capture_output=True, text=True, check=True).stdout
    assert out.startswith("Usage: sudo scripts/install-pi.sh")
    assert "--hostname NAME" in out and "--dry-run" in out
    assert "set -euo" not in out and "SRC=" not in out and "$(" not in out


def test_an_option_without_its_value_is_one_clear_line():
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--prefix"], capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.strip() == "install-pi.sh: --prefix needs a value (see --help)"


def test_the_docs_list_the_same_apt_packages_as_the_script():
    script = re.search(r"apt-get install -y --no-install-recommends (.+)", dry_run("--no-start"))[1].split()
    docs = re.search(r"^\s*apt-get install (.+)$", DOCS.read_text(), re.M)[1].split()
    assert docs == script


def test_the_doctor_the_installer_runs_and_the_documented_one_use_the_services_data_folder():
    assert "doctor --no-camera --config /etc/tablehub/tablehub.toml --data /var/lib/tablehub" in dry_run()
    documented = [line for line in DOCS.read_text().splitlines() if "tablehub doctor" in line and "sudo" in line]
    assert documented and all("--data /var/lib/tablehub" in line for line in documented), documented


@pytest.mark.parametrize("debian, pip", [("1:1.24.2-1+deb12u1", "1.24.2"), ("1:2.2.4+ds-1", "2.2.4"),
                                         ("2.3.1~rc1-2", "2.3.1")])
def test_apts_numpy_version_becomes_the_pip_pin(debian, pip):
    assert pi(f"deb_upstream '{debian}'").strip() == pip


def fake_dpkg(tmp_path: Path, packages: dict[str, str]) -> dict:
    """A dpkg-query on PATH that knows ``packages`` (name -> Debian version), as installed."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    cases = "\n".join(f'  *" {name}") v="{version}" ;;' for name, version in packages.items())
    (bin_dir / "dpkg-query").write_text(
        '#!/bin/bash\nargs=" $*"\ncase "$args" in\n' + cases + '\n  *) echo "no packages found" >&2; exit 1 ;;\nesac\n'
        'case "$args" in *Status*) echo "install ok installed" ;; *) printf "%s" "$v" ;; esac\n')
    (bin_dir / "dpkg-query").chmod(0o755)
    return {"PATH": f"{bin_dir}:{os.environ['PATH']}"}


def test_the_constraints_follow_apts_numpy_bookworm_and_trixie(tmp_path):
    src = ROOT / "constraints" / "pi.txt"
    trixie = fake_dpkg(tmp_path, {"python3-numpy": "1:2.2.4+ds-1", "python3-picamera2": "0.3.25-1"})
    pins = pi(f'pi_constraints "{src}" "$(apt_version python3-numpy)"', trixie)
    assert re.search(r"^numpy==2\.2\.4\b", pins, re.M) and "opencv-python-headless<4.12" in pins
    assert pi("has_apt_picamera2 && echo yes || echo no", trixie).strip() == "yes"
    bookworm_file = pi(f'pi_constraints "{src}" ""')
    assert re.search(r"^numpy==1\.24\.\d+$", bookworm_file, re.M), "CI tests Bookworm's numpy"


def test_a_laptop_has_no_apt_picamera2(tmp_path):
    assert pi("has_apt_picamera2 && echo yes || echo no", fake_dpkg(tmp_path, {})).strip() == "no"


def test_the_avahi_service_announces_the_configured_port(tmp_path):
    settings = tmp_path / "tablehub.toml"
    settings.write_text("[web]\nport = 8123\n")
    port = pi(f'settings_port "{settings}"').strip()
    assert port == "8123"
    assert pi(f'settings_port "{tmp_path}/absent.toml"').strip() == "8080"
    service = pi(f'avahi_service "{ROOT}/firmware_config/tablehub.avahi.service" {port}')
    assert "<port>8123</port>" in service and "<port>80</port>" not in service


def test_the_new_host_name_goes_into_etc_hosts(tmp_path):
    hosts = tmp_path / "hosts"
    hosts.write_text("127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost\n\n127.0.1.1\t\traspberrypi\n")
    pi(f'set_hosts_name "{hosts}" tablehub')
    lines = hosts.read_text().splitlines()
    assert "127.0.1.1\ttablehub" in lines and not any("raspberrypi" in line for line in lines)
    assert lines[0] == "127.0.0.1\tlocalhost"
    bare = tmp_path / "bare"
    bare.write_text("127.0.0.1 localhost\n")
    pi(f'set_hosts_name "{bare}" tablehub')
    assert bare.read_text().splitlines()[-1] == "127.0.1.1\ttablehub"


def test_the_include_line_comes_once_under_an_all_section(tmp_path):
    config = tmp_path / "config.txt"
    config.write_text("dtparam=audio=on\n[cm5]\ndtoverlay=dwc2,dr_mode=host\n")
    for _ in range(2):
        pi(f'add_boot_include "{config}"')
    text = config.read_text()
    assert text.count("include tablehub.txt") == 1
    assert text.rstrip().endswith("[all]\ninclude tablehub.txt")


def test_an_include_left_under_a_model_filter_by_an_older_installer_is_put_under_all(tmp_path):
    config = tmp_path / "config.txt"
    config.write_text("[pi4]\narm_boost=1\n\n# tablehub (scripts/install-pi.sh)\ninclude tablehub.txt\n")
    pi(f'add_boot_include "{config}"')
    text = config.read_text()
    assert "[all]\ninclude tablehub.txt" in text and text.count("include tablehub.txt") == 1
