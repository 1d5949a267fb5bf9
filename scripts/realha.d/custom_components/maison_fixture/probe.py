"""Ask Home Assistant's own intent code what a call would act on, without
acting: the judge maison's resolver is held to (test only).

`maison_fixture/match` runs an Assist tool exactly as the Model Context
Protocol Server does for a client (helpers/llm.py, the "assist" API, the
conversation assistant, no device), with every target match recorded and
every service call refused while it runs: nothing in the house changes.
`maison_fixture/intents` says what each intent handler constrains.
Only an administrator (the owner's token) may ask.
"""

from __future__ import annotations

import contextvars
from typing import Any

import voluptuous as vol

from homeassistant.components import websocket_api
from homeassistant.core import Context, HomeAssistant, ServiceRegistry, callback
from homeassistant.helpers import intent, llm

_probing: contextvars.ContextVar[list | None] = contextvars.ContextVar("maison_probe", default=None)


class _Stopped(Exception):
    """Raised where the probed call would have acted."""


def _install(hass: HomeAssistant) -> None:
    if getattr(intent, "_maison_probe", False):
        return
    original_match = intent.async_match_targets

    def recording_match(*args: Any, **kwargs: Any) -> intent.MatchTargetsResult:
        result = original_match(*args, **kwargs)
        seen = _probing.get()
        if seen is not None:
            constraints = kwargs.get("constraints", args[1] if len(args) > 1 else None)
            seen.append(
                {
                    "is_match": result.is_match,
                    "reason": result.no_match_reason.name if result.no_match_reason else None,
                    "entity_ids": [s.entity_id for s in result.states] if result.is_match else [],
                    "name": getattr(constraints, "name", None),
                    "area": getattr(constraints, "area_name", None),
                    "floor": getattr(constraints, "floor_name", None),
                    "domains": sorted(getattr(constraints, "domains", None) or []),
                }
            )
        return result

    intent.async_match_targets = recording_match

    original_states = intent.DynamicServiceIntentHandler.async_handle_states

    async def stopping_states(self, intent_obj, match_result, *args, **kwargs):
        if _probing.get() is not None:
            raise _Stopped
        return await original_states(self, intent_obj, match_result, *args, **kwargs)

    intent.DynamicServiceIntentHandler.async_handle_states = stopping_states

    original_call = ServiceRegistry.async_call

    async def stopping_call(self, *args: Any, **kwargs: Any):
        if _probing.get() is not None:
            raise _Stopped
        return await original_call(self, *args, **kwargs)

    ServiceRegistry.async_call = stopping_call
    intent._maison_probe = True


@websocket_api.websocket_command(
    {vol.Required("type"): "maison_fixture/match", vol.Required("tool"): str, vol.Required("args"): dict}
)
@websocket_api.require_admin
@websocket_api.async_response
async def _match(hass: HomeAssistant, connection: websocket_api.ActiveConnection, msg: dict[str, Any]) -> None:
    context = llm.LLMContext(
        platform="mcp_server", context=Context(), language="*", assistant="conversation", device_id=None
    )
    api = await llm.async_get_api(hass, llm.LLM_API_ASSIST, context)
    names = [t.name for t in api.tools if t.name == msg["tool"] or t.name.endswith("__" + msg["tool"])]
    if len(names) != 1:
        connection.send_error(msg["id"], "unknown_tool", f"tools named {msg['tool']}: {names}")
        return
    seen: list = []
    token = _probing.set(seen)
    outcome, error = "returned", None
    try:
        await api.async_call_tool(llm.ToolInput(tool_name=names[0], tool_args=msg["args"]))
    except Exception as err:  # the call fails as a client would see it fail
        outcome, error = "failed", f"{type(err).__name__}: {err}"
        cause: BaseException | None = err
        chain = []
        while cause is not None and len(chain) < 10:
            chain.append(type(cause).__name__)
            if isinstance(cause, _Stopped):
                outcome, error = "stopped", None  # it would have acted on the last match
                break
            cause = cause.__cause__ or cause.__context__
        if outcome == "failed":
            error += " (" + " < ".join(chain) + ")"
    finally:
        _probing.reset(token)
    connection.send_result(msg["id"], {"outcome": outcome, "error": error, "matches": seen})


@websocket_api.websocket_command({vol.Required("type"): "maison_fixture/intents"})
@websocket_api.require_admin
@callback
def _intents(hass: HomeAssistant, connection: websocket_api.ActiveConnection, msg: dict[str, Any]) -> None:
    out = {}
    for handler in intent.async_get(hass):
        name = handler.intent_type
        info = {"class": type(handler).__name__, "service": isinstance(handler, intent.DynamicServiceIntentHandler)}
        if info["service"]:
            info["required_domains"] = sorted(handler.required_domains or [])
            info["required_features"] = handler.required_features or 0
            info["required_states"] = sorted(handler.required_states or [])
            info["device_classes"] = sorted(
                dc.value for enum in (handler.device_classes or []) for dc in enum
            )
            info["slots"] = sorted(str(k) for k in (handler.slot_schema or {}))
        out[name] = info
    connection.send_result(msg["id"], out)


@callback
def async_setup_probe(hass: HomeAssistant) -> None:
    """Register the probe's commands and its interception, once."""
    _install(hass)
    websocket_api.async_register_command(hass, _match)
    websocket_api.async_register_command(hass, _intents)
