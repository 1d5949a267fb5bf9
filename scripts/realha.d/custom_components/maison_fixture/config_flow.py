"""One step: add the fixture."""

from homeassistant.config_entries import ConfigFlow

from . import DOMAIN


class FixtureFlow(ConfigFlow, domain=DOMAIN):
    """Adds the fixture with nothing to ask."""

    VERSION = 1

    async def async_step_user(self, user_input=None):
        return self.async_create_entry(title="maison test fixture", data={})
