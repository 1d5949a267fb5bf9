"""Text-to-speech with pico2wave, Debian's small speech engine (the one
Home Assistant's own Pico TTS integration runs), in English and French.

It answers in WAV and says so by default (preferred format wav), so Home
Assistant hands its audio on as it is: any other format would go through
ffmpeg, which the house does not have.
"""

import os
import subprocess
import tempfile
from typing import Any

from homeassistant.components import tts
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError


async def async_setup_entry(hass: HomeAssistant, entry, async_add_entities):
    """Add the voice."""
    async_add_entities([FixtureVoice()])


class FixtureVoice(tts.TextToSpeechEntity):
    """Speaks with pico2wave."""

    _attr_name = "Fixture Voice"
    _attr_unique_id = "maison_fixture_voice"
    _attr_supported_languages = ["en-US", "en-GB", "fr-FR"]
    _attr_default_language = "en-US"
    _attr_supported_options = [tts.ATTR_PREFERRED_FORMAT]
    _attr_default_options = {tts.ATTR_PREFERRED_FORMAT: "wav"}

    def get_tts_audio(self, message: str, language: str, options: dict[str, Any]) -> tts.TtsAudioType:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "speech.wav")
            try:
                subprocess.run(["pico2wave", "-l", language, "-w", path], input=message, text=True, check=True, timeout=30)
                with open(path, "rb") as f:
                    return "wav", f.read()
            except (OSError, subprocess.SubprocessError) as err:
                raise HomeAssistantError(f"pico2wave failed: {err}") from err
