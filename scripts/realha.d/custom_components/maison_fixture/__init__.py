"""maison's test fixture: an honest AI task entity and two cameras a real
house has, one unavailable and one turned off; and a probe that asks Home
Assistant's own intent code what a call would act on (probe.py).

The AI task computes what it says: the size and mean brightness of each
attached picture, so a test can check that the picture maison sent is the
one described. No cloud service is called. Added through its config flow,
as any integration is.
"""

from homeassistant.config_entries import ConfigEntry
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant

from .probe import async_setup_probe

DOMAIN = "maison_fixture"
PLATFORMS = [Platform.AI_TASK, Platform.CAMERA]


async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    """Set up the fixture's entities, and the matcher probe (probe.py)."""
    async_setup_probe(hass)
    await hass.config_entries.async_forward_entry_setups(entry, PLATFORMS)
    return True


async def async_unload_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
    """Unload the fixture's entities."""
    return await hass.config_entries.async_unload_platforms(entry, PLATFORMS)
