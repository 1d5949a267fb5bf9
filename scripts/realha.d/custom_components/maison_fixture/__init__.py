"""maison's test fixture: what a real house has around maison, computed,
never from a cloud service, and added through its config flow as any
integration is.

- An honest AI task entity (ai_task.py), which can be made slow.
- Two cameras, one unavailable and one turned off (camera.py).
- A conversation agent that stands in for an LLM (conversation.py): it
  maps a few sentences to calls of the tools of the LLM API chosen in its
  options, as a real agent calls them, and says the tool's words.
- A text-to-speech entity speaking with pico2wave (tts.py).
- A phone to notify, as an entity (notify.py) and as a notify action like
  the companion app's, notify.mobile_app_fixture_phone; and a phone that
  cannot be reached, notify.mobile_app_lost_phone, whose action fails.
  What reached them is kept for the tests (maison_fixture/received).
- A probe that asks Home Assistant's own intent code what a call would act
  on, acting on nothing (probe.py).
"""

import asyncio
from typing import Any

import probatio

from homeassistant.components import websocket_api
from homeassistant.components.notify import ATTR_DATA, ATTR_MESSAGE, ATTR_TITLE
from homeassistant.components.notify.const import NOTIFY_SERVICE_SCHEMA
from homeassistant.config_entries import ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, ServiceCall, callback
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers.service import async_register_admin_service

from .probe import async_setup_probe

DOMAIN = "maison_fixture"
PLATFORMS = [Platform.AI_TASK, Platform.CAMERA, Platform.CONVERSATION, Platform.NOTIFY, Platform.TTS]
PHONE_ACTION = "mobile_app_fixture_phone"
LOST_PHONE_ACTION = "mobile_app_lost_phone"


def fixture_data(hass: HomeAssistant) -> dict[str, Any]:
    """What the fixture keeps: what was received, how slow the AI is."""
    return hass.data.setdefault(DOMAIN, {"received": [], "vision_delay": 0.0})


@callback
def record(hass: HomeAssistant, via: str, title: str | None, message: str, data: Any = None) -> None:
    """Keep a notification a phone received."""
    fixture_data(hass)["received"].append({"via": via, "title": title, "message": message, "data": data})


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    """Set up the fixture's entities, actions and commands, and the probe."""
    async_setup_probe(hass)
    fixture_data(hass)

    async def phone(call: ServiceCall) -> None:
        record(hass, f"notify.{PHONE_ACTION}", call.data.get(ATTR_TITLE), call.data[ATTR_MESSAGE], call.data.get(ATTR_DATA))

    async def lost_phone(call: ServiceCall) -> None:
        raise HomeAssistantError("The phone could not be reached: its push service did not answer")

    async def set_vision(call: ServiceCall) -> None:
        fixture_data(hass)["vision_delay"] = call.data["delay"]

    hass.services.async_register("notify", PHONE_ACTION, phone, schema=NOTIFY_SERVICE_SCHEMA)
    hass.services.async_register("notify", LOST_PHONE_ACTION, lost_phone, schema=NOTIFY_SERVICE_SCHEMA)
    async_register_admin_service(
        hass, DOMAIN, "set_vision", set_vision,
        schema=probatio.Schema({probatio.Required("delay"): probatio.Coerce(float)}),
    )
    websocket_api.async_register_command(hass, websocket_received)
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    return True


async def async_unload_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    """Unload the fixture's entities and actions."""
    for action in (PHONE_ACTION, LOST_PHONE_ACTION):
        hass.services.async_remove("notify", action)
    hass.services.async_remove(DOMAIN, "set_vision")
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)


@callback
@websocket_api.require_admin
@websocket_api.websocket_command({probatio.Required("type"): "maison_fixture/received"})
def websocket_received(hass: HomeAssistant, connection: websocket_api.ActiveConnection, msg: dict[str, Any]) -> None:
    """Every notification the fixture's phones received, oldest first."""
    connection.send_result(msg["id"], fixture_data(hass)["received"])
