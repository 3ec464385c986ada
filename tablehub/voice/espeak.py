"""espeak-ng, the speech synthesiser (Debian package ``espeak-ng``), run as a child process.

One call speaks one sentence: ``espeak-ng -v VOICE -a AMPLITUDE -s SPEED -- TEXT`` plays it
on the default ALSA device; with an ALSA ``device`` the sound goes
``espeak-ng --stdout | aplay -q -D DEVICE`` instead; ``wav=`` writes a WAV file
(``espeak-ng -w FILE``, what the tests listen to). A call that outlives ``timeout_s``
is killed (a wedged sound card must not stop the announcements that follow).
"""
from __future__ import annotations

import logging
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..games.base import TablehubError

log = logging.getLogger(__name__)

#: the voice of each table language when ``[voice] voice`` is empty
LANGUAGE_VOICES = {"en": "en", "fr": "fr", "de": "de"}


class SpeechError(TablehubError):
    pass


@dataclass
class Espeak:
    """How to call espeak-ng. ``binary``: its path (``None``: not installed)."""

    binary: str | None
    voice: str = "en"
    volume: int = 100
    speed: int = 160
    device: str = ""
    timeout_s: float = 20.0
    aplay: str | None = None

    @classmethod
    def find(cls, name: str = "espeak-ng", **settings: object) -> "Espeak":
        return cls(shutil.which(name), aplay=shutil.which("aplay"), **settings)  # type: ignore[arg-type]

    @property
    def available(self) -> bool:
        return self.binary is not None

    def command(self, text: str, wav: str | Path | None = None, stdout: bool = False) -> list[str]:
        if self.binary is None:
            raise SpeechError("espeak-ng is not installed (Debian: apt install espeak-ng)")
        cmd = [self.binary, "-v", self.voice, "-a", str(self.volume), "-s", str(self.speed)]
        if wav is not None:
            cmd += ["-w", str(wav)]
        elif stdout:
            cmd.append("--stdout")
        return cmd + ["--", text]

    def speak(self, text: str, wav: str | Path | None = None) -> None:
        """Say ``text`` (or write it to ``wav``); returns when done. Raises :class:`SpeechError`."""
        if wav is None and self.device:
            return self._speak_to_device(text)
        proc = subprocess.Popen(self.command(text, wav), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        self._wait(proc, "espeak-ng")

    def _speak_to_device(self, text: str) -> None:
        if self.aplay is None:
            raise SpeechError(f"[voice] device {self.device!r} needs aplay (Debian: apt install alsa-utils)")
        synth = subprocess.Popen(self.command(text, stdout=True), stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        play = subprocess.Popen([self.aplay, "-q", "-D", self.device], stdin=synth.stdout,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert synth.stdout is not None
        synth.stdout.close()  # aplay owns the pipe now: espeak-ng gets SIGPIPE if aplay dies
        try:
            self._wait(play, "aplay")
        except SpeechError:
            synth.kill()  # aplay's error says what is wrong (no such device); espeak-ng only lost its pipe
            synth.communicate()
            raise
        self._wait(synth, "espeak-ng")

    def _wait(self, proc: subprocess.Popen, name: str) -> None:
        try:
            _, err = proc.communicate(timeout=self.timeout_s)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            raise SpeechError(f"{name} took longer than {self.timeout_s:g} s and was stopped") from None
        if proc.returncode != 0:
            line = (err or b"").decode(errors="replace").strip().splitlines()
            raise SpeechError(f"{name} failed (exit {proc.returncode}): {line[-1] if line else 'no message'}")

    def voices(self) -> list[str]:
        """The voice names this espeak-ng knows (``espeak-ng --voices``)."""
        if self.binary is None:
            return []
        try:
            out = subprocess.run([self.binary, "--voices"], capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            return []
        names = []
        for line in out.splitlines()[1:]:
            parts = line.split()
            if len(parts) >= 2:
                names.append(parts[1])
        return names
