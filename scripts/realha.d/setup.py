"""Onboard a fresh Home Assistant as its owner would, then set up the house
maison is tested against. Runs with Home Assistant's own Python (aiohttp).

Prints KEY=value lines: the owner's and maison's long-lived tokens. Every
step is done through the interfaces a person's browser uses (onboarding,
login flow, config flows, the websocket API); nothing writes Home
Assistant's storage files directly.
"""

import asyncio
import os
import sys

import aiohttp

URL = os.environ["REALHA_URL"]
CLIENT_ID = URL + "/"
OWNER_PASSWORD = os.environ["REALHA_OWNER_PASSWORD"]
MAISON_PASSWORD = os.environ["REALHA_MAISON_PASSWORD"]
FRAMES = os.environ["REALHA_FRAMES"]  # directory inside Home Assistant's root
# The local_file cameras: each serves one of this project's broken frames
# (fixtures/jpeg); Home Assistant names each after its file.
CAMERA_FILES = (
    "dahua.com-too-short.jpeg",  # a comment segment that lies about its length
    "esp32cam.missing-eoi.jpeg",  # no end-of-image marker
    "reolink.truncated.jpeg",  # cut short in the middle of the scan
    "reolink.html-error.jpeg",  # an HTML error page instead of a picture
    # A camera shown to nothing, whose file realhouse/pictures_test.go
    # replaces with each frame of the third corpus in turn, then empties
    # and removes; restored afterwards.
    "third.rgb-adobe.jpeg",
)


def step(name):
    print(f"realha: {name}", file=sys.stderr, flush=True)


async def check(resp, what):
    if resp.status >= 300:
        raise SystemExit(f"{what}: HTTP {resp.status}: {(await resp.text())[:500]}")
    return await resp.json() if resp.content_type == "application/json" else await resp.text()


async def token_from_code(http, code):
    async with http.post(URL + "/auth/token", data={
        "grant_type": "authorization_code", "code": code, "client_id": CLIENT_ID,
    }) as resp:
        return (await check(resp, "auth/token"))["access_token"]


class WS:
    def __init__(self, http, token):
        self.http, self.token, self.n = http, token, 0

    async def __aenter__(self):
        self.ws = await self.http.ws_connect(URL + "/api/websocket")
        await self.ws.receive_json()
        await self.ws.send_json({"type": "auth", "access_token": self.token})
        msg = await self.ws.receive_json()
        if msg["type"] != "auth_ok":
            raise SystemExit(f"websocket auth: {msg}")
        return self

    async def __aexit__(self, *exc):
        await self.ws.close()

    async def __call__(self, type_, **fields):
        self.n += 1
        await self.ws.send_json({"id": self.n, "type": type_, **fields})
        while True:
            msg = await self.ws.receive_json()
            if msg.get("id") == self.n and msg.get("type") == "result":
                if not msg["success"]:
                    raise SystemExit(f"websocket {type_}: {msg['error']}")
                return msg["result"]


async def config_flow(http, token, handler, user_input):
    hdr = {"Authorization": f"Bearer {token}"}
    async with http.post(URL + "/api/config/config_entries/flow", headers=hdr,
                         json={"handler": handler, "show_advanced_options": False}) as resp:
        flow = await check(resp, f"config flow {handler}")
    while flow.get("type") == "form":
        async with http.post(URL + f"/api/config/config_entries/flow/{flow['flow_id']}",
                             headers=hdr, json=user_input) as resp:
            flow = await check(resp, f"config flow {handler} step {flow.get('step_id')}")
    if flow.get("type") != "create_entry":
        raise SystemExit(f"config flow {handler} ended with {flow}")
    return flow["result"]


async def main():
    async with aiohttp.ClientSession() as http:
        step("onboarding the owner")
        async with http.post(URL + "/api/onboarding/users", json={
            "client_id": CLIENT_ID, "name": "Owner", "username": "owner",
            "password": OWNER_PASSWORD, "language": "en",
        }) as resp:
            code = (await check(resp, "onboarding/users"))["auth_code"]
        owner = await token_from_code(http, code)
        hdr = {"Authorization": f"Bearer {owner}"}
        for path, body in (("core_config", {}), ("analytics", {}),
                           ("integration", {"client_id": CLIENT_ID, "redirect_uri": CLIENT_ID})):
            async with http.post(URL + f"/api/onboarding/{path}", headers=hdr, json=body) as resp:
                await check(resp, f"onboarding/{path}")

        async with WS(http, owner) as ws:
            owner_llat = await ws("auth/long_lived_access_token", client_name="realha owner", lifespan=3650)

            step("creating maison's user: not an administrator, local network only")
            user = (await ws("config/auth/create", name="Maison", group_ids=["system-users"], local_only=True))["user"]
            await ws("config/auth_provider/homeassistant/create", user_id=user["id"], username="maison", password=MAISON_PASSWORD)
            await ws("person/create", name="Maison", user_id=user["id"])

        step("adding the Model Context Protocol Server integration (its defaults for a new install)")
        await config_flow(http, owner, "mcp_server", {})

        step("adding the local_file cameras that serve broken frames")
        for path in CAMERA_FILES:
            await config_flow(http, owner, "local_file", {"file_path": f"{FRAMES}/{path}"})

        step("adding the test fixture: an honest AI task, a camera unavailable, one turned off")
        await config_flow(http, owner, "maison_fixture", {})

        step("logging in as maison and creating its long-lived token, as its person would")
        async with http.post(URL + "/auth/login_flow", json={
            "client_id": CLIENT_ID, "handler": ["homeassistant", None], "redirect_uri": CLIENT_ID,
        }) as resp:
            flow = await check(resp, "login flow")
        async with http.post(URL + f"/auth/login_flow/{flow['flow_id']}", json={
            "client_id": CLIENT_ID, "username": "maison", "password": MAISON_PASSWORD,
        }) as resp:
            done = await check(resp, "login flow step")
        if done.get("type") != "create_entry":
            raise SystemExit(f"maison's login was refused: {done}")
        maison = await token_from_code(http, done["result"])
        async with WS(http, maison) as ws:
            maison_llat = await ws("auth/long_lived_access_token", client_name="maison", lifespan=3650)

        print(f"REALHA_OWNER_TOKEN={owner_llat}")
        print(f"MAISON_HA_TOKEN={maison_llat}")


asyncio.run(main())
