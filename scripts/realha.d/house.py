"""Arrange the house as its owner would: areas (one with aliases, one renamed
as real houses rename them), friendly camera names, what is exposed to
Assist, and two voice assistants (English and French) with the fixture's
agent and voice. Uses the owner's token on the websocket API, as the
frontend does.
"""

import asyncio
import os
import sys

import aiohttp

URL = os.environ["REALHA_URL"]
TOKEN = os.environ["REALHA_OWNER_TOKEN"]

# entity id -> (name given in the registry or None, area id)
PLACES = {
    "camera.dahua_com_too_short": ("Patio Camera", "patio"),
    "camera.esp32cam_missing_eoi": ("Shed Camera", "shed"),
    "camera.reolink_truncated": ("Driveway Camera", "driveway"),
    "camera.reolink_html_error": ("Side Gate Camera", "driveway"),
    "camera.attic": (None, "attic"),
    "camera.porch": (None, "porch"),
    "light.entrance_color_white_lights": (None, "patio"),
    "binary_sensor.movement_backyard": (None, "patio"),
    "light.kitchen_lights": (None, "kitchen"),
    "cover.kitchen_window": (None, "kitchen"),
    "light.living_room_rgbww_lights": (None, "living_room"),
    "cover.living_room_window": (None, "living_room"),
    "sensor.outside_temperature": (None, "patio"),
    "sensor.outside_humidity": (None, "patio"),
    "light.bed_light": (None, "garage"),  # the area renamed Workshop keeps the id garage
    "cover.garage_door": (None, "garage_2"),  # the new area called Garage
}
EXPOSED = [e for e in PLACES if e.startswith("camera.")]
NOT_EXPOSED = ["light.ceiling_lights", "switch.ac", "camera.third_rgb_adobe"]


class WS:
    def __init__(self, http):
        self.http, self.n = http, 0

    async def __aenter__(self):
        self.ws = await self.http.ws_connect(URL + "/api/websocket")
        await self.ws.receive_json()
        await self.ws.send_json({"type": "auth", "access_token": TOKEN})
        if (await self.ws.receive_json())["type"] != "auth_ok":
            raise SystemExit("house: the owner's token was refused")
        return self

    async def __aexit__(self, *exc):
        await self.ws.close()

    async def __call__(self, type_, tolerate=None, **fields):
        self.n += 1
        await self.ws.send_json({"id": self.n, "type": type_, **fields})
        while True:
            msg = await self.ws.receive_json()
            if msg.get("id") == self.n and msg.get("type") == "result":
                if not msg["success"]:
                    if tolerate and msg["error"]["code"] == tolerate:
                        return None
                    raise SystemExit(f"house: {type_} {fields}: {msg['error']}")
                return msg["result"]


async def main():
    async with aiohttp.ClientSession() as http, WS(http) as ws:
        print("realha: arranging the house (areas, names, exposure to Assist)", file=sys.stderr)
        floor = await ws("config/floor_registry/create", name="Ground Floor", level=0, aliases=["downstairs"])
        # Onboarding already made Living Room, Kitchen and Bedroom.
        known = {a["area_id"] for a in await ws("config/area_registry/list")}
        for name, aliases in (("Patio", ["terrace", "deck"]), ("Shed", []), ("Driveway", []),
                              ("Attic", []), ("Porch", []), ("Kitchen", []), ("Living Room", [])):
            area_id = name.lower().replace(" ", "_")
            verb = "update" if area_id in known else "create"
            key = {"area_id": area_id} if verb == "update" else {"name": name}
            await ws(f"config/area_registry/{verb}", **key, aliases=aliases, floor_id=floor["floor_id"])
        # A renamed area keeps its id: "Garage" became "Workshop", then a new
        # "Garage" (id garage_2) was made for the door.
        await ws("config/area_registry/create", name="Garage")
        await ws("config/area_registry/update", area_id="garage", name="Workshop")
        new = await ws("config/area_registry/create", name="Garage")
        assert new["area_id"] == "garage_2", new
        for entity_id, (name, area) in PLACES.items():
            entry = await ws("config/entity_registry/get", entity_id=entity_id)
            if name:
                await ws("config/entity_registry/update", entity_id=entity_id, name=name)
            done = await ws("config/entity_registry/update", tolerate="invalid_info", entity_id=entity_id, area_id=area)
            if done is None:
                # An entity named by its device takes its device's area.
                await ws("config/device_registry/update", device_id=entry["device_id"], area_id=area)
        await ws("homeassistant/expose_entity", assistants=["conversation"], entity_ids=EXPOSED, should_expose=True)
        await ws("homeassistant/expose_entity", assistants=["conversation"], entity_ids=NOT_EXPOSED, should_expose=False)
        # A light off, so the live context shows an attribute without a value.
        await ws("call_service", domain="light", service="turn_off", service_data={"entity_id": "light.office_rgbw_lights"})
        # Voice assistants, as Settings, Voice assistants makes them: text in,
        # the fixture's agent (its tools are chosen in its options once an LLM
        # API exists), speech out with the fixture's voice.
        for name, lang, voice in (("maison voice", "en", "en-US"), ("maison voix", "fr", "fr-FR")):
            await ws("assist_pipeline/pipeline/create", name=name, language=lang,
                     conversation_engine="conversation.fixture_assistant", conversation_language=lang,
                     prefer_local_intents=False, stt_engine=None, stt_language=None,
                     tts_engine="tts.fixture_voice", tts_language=voice, tts_voice=None,
                     wake_word_entity=None, wake_word_id=None)
        # Home Assistant 2026.11 moves configuration.yaml's http settings
        # (loopback, the port) into storage as a trial: unless the owner
        # confirms them, five minutes after starting it marks them failed,
        # stops to restart (nothing restarts it here) and comes back, on
        # the next start, on 0.0.0.0:8123. The owner confirms them.
        await ws("http/config/promote")


asyncio.run(main())
