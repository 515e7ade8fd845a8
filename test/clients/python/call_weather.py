"""Calls get_weather on a running weather-server with a Python MCP client and prints what its typed result holds.

Usage: python3 call_weather.py <mcp|fastmcp> <url> <city>

Prints one JSON object on stdout: `is_error`, the `result_type` the client built, and `city` / `temperature` read
from the client's typed result (FastMCP: `result.data`, a class built from the tool's outputSchema; `mcp`:
`result.structured_content`, validated against the outputSchema). Exit code 3 means the client package is missing.
"""

import asyncio
import dataclasses
import json
import sys


def _field(value, name):
    """Reads a member of a dataclass / pydantic model / dict, or None when absent."""
    if isinstance(value, dict):
        return value.get(name)
    return getattr(value, name, None)


def _summary(is_error, typed):
    data = _field(typed, "data")
    city = _field(data, "city")
    return {
        "is_error": bool(is_error),
        "result_type": type(typed).__name__,
        "status": _field(typed, "status"),
        "city": _field(city, "name"),
        "temperature": _field(data, "temperature"),
        "data_type": type(data).__name__,
    }


async def with_mcp(url, city):
    from mcp import Client

    async with Client(url) as client:
        await client.list_tools()  # caches the outputSchema the SDK validates structured content against
        result = await client.call_tool("get_weather", {"city": city})
        return _summary(result.is_error, result.structured_content)


async def with_fastmcp(url, city):
    from fastmcp import Client

    async with Client(url) as client:
        result = await client.call_tool("get_weather", {"city": city})
        summary = _summary(result.is_error, result.data)
        summary["is_dataclass"] = dataclasses.is_dataclass(result.data)
        return summary


def main():
    client, url, city = sys.argv[1:4]
    run = {"mcp": with_mcp, "fastmcp": with_fastmcp}[client]
    try:
        summary = asyncio.run(run(url, city))
    except ImportError as error:
        print(f"missing Python package: {error.name}", file=sys.stderr)
        sys.exit(3)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
