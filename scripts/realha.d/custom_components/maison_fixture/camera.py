"""A camera that is unavailable (its device went away) and one turned off."""

from homeassistant.components.camera import Camera
from homeassistant.core import HomeAssistant


async def async_setup_entry(hass: HomeAssistant, entry, async_add_entities):
    """Add the unavailable camera and the one turned off."""
    async_add_entities([UnavailableCamera(), OffCamera()])


class UnavailableCamera(Camera):
    """Always unavailable."""

    _attr_name = "Attic"
    _attr_unique_id = "maison_fixture_attic"
    _attr_available = False

    async def async_camera_image(self, width=None, height=None):
        return None


class OffCamera(Camera):
    """Turned off: Home Assistant's camera proxy refuses it as such."""

    _attr_name = "Porch"
    _attr_unique_id = "maison_fixture_porch"
    _attr_is_on = False

    async def async_camera_image(self, width=None, height=None):
        return None
