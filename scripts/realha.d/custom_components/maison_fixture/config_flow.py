"""One step: add the fixture. Its options choose the LLM API whose tools
its conversation agent may call, as a person allows tools for an agent."""

from typing import Any

import probatio

from homeassistant.config_entries import ConfigEntry, ConfigFlow, ConfigFlowResult, OptionsFlow
from homeassistant.const import CONF_LLM_HASS_API
from homeassistant.core import callback
from homeassistant.helpers import llm

from . import DOMAIN


class FixtureFlow(ConfigFlow, domain=DOMAIN):
    """Adds the fixture with nothing to ask."""

    VERSION = 1

    async def async_step_user(self, user_input=None):
        return self.async_create_entry(title="maison test fixture", data={})

    @staticmethod
    @callback
    def async_get_options_flow(config_entry: ConfigEntry) -> OptionsFlow:
        return FixtureOptions()


class FixtureOptions(OptionsFlow):
    """Which LLM API the agent's tools come from."""

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> ConfigFlowResult:
        apis = [api.id for api in llm.async_get_apis(self.hass)]
        if user_input is not None:
            return self.async_create_entry(data=user_input)
        return self.async_show_form(
            step_id="init",
            data_schema=probatio.Schema({probatio.Optional(CONF_LLM_HASS_API): probatio.In(apis)}),
        )
