"""Signs in with the Python `mcp` client's own OAuth, then calls the `whoami` tool of an MCP server.

Usage:
  python3 oauth_call.py client-credentials <url> <issuer> <client_id> <client_secret> <scope>
  python3 oauth_call.py authorization-code <url> <issuer> <client_id> <redirect_uri> <scope>

The authorization-code flow (PKCE, a public client registered beforehand) prints {"authorize": <url>} on stdout
and reads the redirect it ended at (the callback URL with `code` and `state`) from stdin: the test plays the user.
The last line on stdout is {"is_error": ..., "data": <whoami's structured result>}.
"""

import asyncio
import json
import sys
from urllib.parse import parse_qs, urlparse

import anyio
import httpx2
from mcp import ClientSession
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.auth.extensions.client_credentials import ClientCredentialsOAuthProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata


class MemoryStorage:
    """Tokens and client information in memory (the test's process lives for one call)."""

    def __init__(self, client_info=None):
        self.tokens = None
        self.client_info = client_info

    async def get_tokens(self):
        return self.tokens

    async def set_tokens(self, tokens):
        self.tokens = tokens

    async def get_client_info(self):
        return self.client_info

    async def set_client_info(self, client_info):
        self.client_info = client_info


def client_credentials(url, issuer, client_id, client_secret, scope):
    return ClientCredentialsOAuthProvider(
        server_url=url, storage=MemoryStorage(), client_id=client_id, client_secret=client_secret, scope=scope, issuer=issuer
    )


def authorization_code(url, issuer, client_id, redirect_uri, scope):
    metadata = dict(
        redirect_uris=[redirect_uri],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
        token_endpoint_auth_method="none",
        scope=scope,
    )

    async def redirect_handler(authorization_url):
        print(json.dumps({"authorize": authorization_url}), flush=True)

    async def callback_handler():
        line = await anyio.to_thread.run_sync(sys.stdin.readline)
        query = parse_qs(urlparse(line.strip()).query)
        first = lambda name: query.get(name, [None])[0]  # noqa: E731
        return AuthorizationCodeResult(code=first("code"), state=first("state"), iss=first("iss"))

    return OAuthClientProvider(
        server_url=url,
        client_metadata=OAuthClientMetadata(**metadata),
        storage=MemoryStorage(OAuthClientInformationFull(client_id=client_id, **metadata)),
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )


async def main(flow, url, issuer, client, secret_or_redirect, scope):
    build = client_credentials if flow == "client-credentials" else authorization_code
    provider = build(url, issuer, client, secret_or_redirect, scope)
    async with httpx2.AsyncClient(auth=provider, timeout=20) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as session:
                await session.initialize()
                result = await session.call_tool("whoami", {})
                data = result.structured_content
                data = data.get("data", data) if isinstance(data, dict) else data
                print(json.dumps({"is_error": bool(result.is_error), "data": data}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:7]))
