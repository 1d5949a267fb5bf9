"""burst.py URL TOKEN TOOL N: one session of the official Python SDK's client
(PyPI mcp), calling TOOL N times, each as soon as the last is answered, as an
agent does; prints what came back as JSON."""

import asyncio
import json
import sys
import time

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


async def main(url: str, token: str, tool: str, n: int) -> dict:
    out = {"ok": 0, "limited": 0, "failed": 0, "firstError": "", "ms": 0, "fatal": ""}
    try:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60) as http:
            async with Client(streamable_http_client(url, http_client=http)) as client:
                t0 = time.monotonic()
                for _ in range(n):
                    try:
                        r = await client.call_tool(tool, {})
                        text = " ".join(getattr(c, "text", "") for c in r.content)
                        if not r.is_error:
                            out["ok"] += 1
                        elif "Try again in" in text:
                            out["limited"] += 1
                        else:
                            out["failed"] += 1
                            out["firstError"] = out["firstError"] or text
                    except Exception as e:  # the session may be gone: every later call says so
                        out["failed"] += 1
                        out["firstError"] = out["firstError"] or repr(e)
                out["ms"] = int((time.monotonic() - t0) * 1000)
    except BaseException as e:
        out["fatal"] = repr(e)
    return out


if __name__ == "__main__":
    url, token, tool, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    print(json.dumps(asyncio.run(main(url, token, tool, n))))
