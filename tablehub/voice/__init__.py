"""Spoken announcements: the table's events as short sentences through espeak-ng (docs/voice.md).

Pure Python, no Flask: :class:`Speaker` listens to the session and the tracker,
:class:`~.phrases.Phrasebook` renders the sentences (gettext-ready), and
:class:`~.espeak.Espeak` calls the espeak-ng binary.
"""
from .espeak import Espeak, SpeechError
from .phrases import Announcement, Phrasebook
from .speaker import PAGE_KEYS, Speaker, in_quiet_hours, start_voice

__all__ = ["Announcement", "Espeak", "PAGE_KEYS", "Phrasebook", "Speaker", "SpeechError", "in_quiet_hours",
           "start_voice"]
