"""scripts/install-pi.sh: valid bash, and a dry run shows the steps the Pi needs."""
from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install-pi.sh"


def test_the_installer_is_valid_bash():
    subprocess.run(["bash", "-n", str(SCRIPT)], check=True)


def test_a_dry_run_installs_picamera2_keeps_numpy_compatible_and_adds_one_include_line():
    out = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-start"], capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert "python3-picamera2" in out and "python3-lgpio" in out
    assert "espeak-ng alsa-utils" in out, "the voice's synthesiser and aplay (docs/voice.md)"
    assert "venv --system-site-packages" in out
    assert "numpy<2" in out and "opencv-python-headless<4.12" in out
    assert "usermod -aG video tablehub" in out
    assert "tablehub.avahi.service" in out and "systemctl enable tablehub.service" in out
    assert "systemctl restart" not in out, "--no-start leaves the service stopped"
    text = SCRIPT.read_text()
    assert text.count('printf \'\\n# tablehub (scripts/install-pi.sh)\\ninclude tablehub.txt\\n\'') == 1
    assert 'grep -qxF "include tablehub.txt"' in text, "the include line is added only once"
