"""A phone to notify, as a notify entity: it keeps what it received."""

from homeassistant.components.notify import NotifyEntity, NotifyEntityFeature
from homeassistant.core import HomeAssistant

from . import record


async def async_setup_entry(hass: HomeAssistant, entry, async_add_entities):
    """Add the phone."""
    async_add_entities([FixturePhone()])


class FixturePhone(NotifyEntity):
    """Keeps every message sent to it."""

    _attr_name = "Fixture Phone"
    _attr_unique_id = "maison_fixture_phone"
    _attr_supported_features = NotifyEntityFeature.TITLE

    async def async_send_message(self, message: str, title: str | None = None) -> None:
        record(self.hass, self.entity_id, title, message)
