"""An AI task entity that describes pictures by measuring them, after the
delay maison_fixture.set_vision sets (none at first): a slow AI."""

import asyncio

from PIL import Image, ImageStat

from homeassistant.components import ai_task, conversation
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError

from . import fixture_data


async def async_setup_entry(hass: HomeAssistant, entry, async_add_entities):
    """Add the fixture's AI task entity."""
    async_add_entities([FixtureVision()])


def _measure(path) -> str:
    with Image.open(path) as img:
        grey = img.convert("L")
        mean = ImageStat.Stat(grey).mean[0]
        return f"a {img.width}x{img.height} picture, mean brightness {mean:.0f} of 255"


class FixtureVision(ai_task.AITaskEntity):
    """Says the size and brightness of each attached picture."""

    _attr_name = "Fixture Vision"
    _attr_unique_id = "maison_fixture_vision"
    _attr_supported_features = (
        ai_task.AITaskEntityFeature.GENERATE_DATA
        | ai_task.AITaskEntityFeature.SUPPORT_ATTACHMENTS
    )

    async def _async_generate_data(
        self, task: ai_task.GenDataTask, chat_log: conversation.ChatLog
    ) -> ai_task.GenDataTaskResult:
        if delay := fixture_data(self.hass)["vision_delay"]:
            await asyncio.sleep(delay)
        if "fail" in task.instructions.lower():
            raise HomeAssistantError("The fixture was asked to fail")
        parts = []
        for att in task.attachments or []:
            described = await self.hass.async_add_executor_job(_measure, att.path)
            parts.append(f"{att.media_content_id}: {described}")
        text = "; ".join(parts) if parts else "no picture was attached"
        return ai_task.GenDataTaskResult(conversation_id=chat_log.conversation_id, data=text)
