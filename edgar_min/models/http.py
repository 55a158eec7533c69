"""One JSON-over-HTTP call through `urllib`, with every failure turned into a `ModelError`.

Used by the HTTP model providers and the SemIf engines. Error sentences name
the provider and the URL, never a header value: keys live only in headers.
"""

from __future__ import annotations

import sys

from edgar_min import jsoncodec
from edgar_min.errors import ConfigError, ModelError
from edgar_min.models import MAX_REPLY_CHARS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MAX_RESPONSE_BYTES", "HTTPStatusError", "check_base_url", "post_json", "reply_text", "shown_url"]

# A reply larger than this is refused before it is decoded.
MAX_RESPONSE_BYTES = 8_000_000


class HTTPStatusError(ModelError):
    """The server answered with an HTTP error status (kept, so a caller can tell a 400 from a 503)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def check_base_url(who: str, url: str) -> str:
    """`url` without a trailing slash, or a `ConfigError` when it has no http(s) scheme or host."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        msg = f"{who}: base URL {shown_url(url)!r} must start with http:// or https:// and name a host"
        raise ConfigError(msg)
    return url.rstrip("/")


def shown_url(url: str) -> str:
    """`url` as it may appear in a sentence: without a user or password in it."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))


def reply_text(who: str, url: str, text: str | None, shape: str) -> str:
    """The stripped text of a model reply, or a `ModelError`: wrong shape, empty, or over the cap."""
    if text is None:
        msg = f"{who}: {shown_url(url)} answered JSON that is not {shape}"
        raise ModelError(msg)
    if not text.strip():
        msg = f"{who}: {shown_url(url)} answered with an empty reply"
        raise ModelError(msg)
    if len(text) > MAX_REPLY_CHARS:
        msg = f"{who}: {shown_url(url)} answered with {len(text)} characters; the cap is {MAX_REPLY_CHARS}"
        raise ModelError(msg)
    return text.strip()


def post_json(
    who: str,
    url: str,
    body: dict[str, Any],
    headers: dict[str, str],
    timeout: float,
    *,
    secret: str = "",
) -> Any:
    """POST `body` as JSON to `url`; return the decoded JSON reply or raise `ModelError`.

    Keys (`secret`, and whatever the `Authorization` and `x-api-key` headers carry) are cut
    out of every sentence, in case a server echoes them back.
    """
    secrets = [secret] if secret else []
    for name, value in headers.items():
        if name.lower() == "authorization":
            secrets.append(value.partition(" ")[2] or value)
        elif name.lower() in {"x-api-key", "api-key"}:
            secrets.append(value)
    try:
        return _post_json(who, url, body, headers, timeout)
    except ModelError as exc:
        message = exc.message
        for value in secrets:
            if value:
                message = message.replace(value, "[REDACTED]")
        if message == exc.message:
            raise
        if isinstance(exc, HTTPStatusError):
            raise HTTPStatusError(message, exc.status) from None
        raise ModelError(message) from None


# The URLs a person at a terminal was told this process waits for (`_say_wait`).
_SAID: set[str] = set()


def _say_wait(who: str, url: str, timeout: float) -> None:
    """A word on stderr before a wait a person may sit through, once per URL a run.

    Only when stderr is a terminal: a hook's stderr goes to its agent and the MCP server's to
    the agent's log, where a line a run is noise, and a hook's stdout is never written here.
    """
    stream = sys.stderr
    try:
        at_terminal = stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        at_terminal = False
    if at_terminal and url not in _SAID:
        _SAID.add(url)
        print(f"edgar: {who}: asking {url} (up to {timeout:g} s)...", file=stream, flush=True)


def _post_json(who: str, url: str, body: dict[str, Any], headers: dict[str, str], timeout: float) -> Any:
    import socket
    import urllib.error
    import urllib.request

    request_url, url = url, shown_url(url)
    _say_wait(who, url, timeout)

    data = jsoncodec.dumps(body).encode("utf-8")
    request = urllib.request.Request(  # noqa: S310 - the scheme is checked by check_base_url
        request_url, data=data, method="POST", headers={"Content-Type": "application/json", **headers}
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            raw = response.read(MAX_RESPONSE_BYTES + 1)
    except urllib.error.HTTPError as exc:
        detail = ""
        try:
            payload = jsoncodec.loads(exc.read(4000) or b"{}")
            error = payload.get("error") if isinstance(payload, dict) else None
            text = error.get("message") if isinstance(error, dict) else error
            if isinstance(text, str):
                detail = f": {' '.join(text.split())[:200]}"
        except (ValueError, OSError):
            pass
        msg = f"{who}: {url} answered HTTP {exc.code}{detail}"
        raise HTTPStatusError(msg, exc.code) from None
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, (TimeoutError, socket.timeout)):
            msg = f"{who}: {url} did not answer within {timeout:g} s"
        elif isinstance(reason, ConnectionRefusedError):
            msg = f"{who}: {url} refused the connection (is the server running?)"
        else:
            msg = f"{who}: {url} could not be reached ({getattr(reason, 'strerror', None) or reason})"
        raise ModelError(msg) from None
    except TimeoutError:
        msg = f"{who}: {url} did not answer within {timeout:g} s"
        raise ModelError(msg) from None
    except (ConnectionError, OSError) as exc:
        msg = f"{who}: the connection to {url} broke ({type(exc).__name__})"
        raise ModelError(msg) from None
    except ValueError as exc:  # e.g. http.client.InvalidURL, RemoteDisconnected is an OSError
        msg = f"{who}: {url} could not be used ({exc})"
        raise ModelError(msg) from None
    if len(raw) > MAX_RESPONSE_BYTES:
        msg = f"{who}: {url} answered with more than {MAX_RESPONSE_BYTES} bytes"
        raise ModelError(msg)
    try:
        return jsoncodec.loads(raw)
    except ValueError:
        msg = f"{who}: {url} answered with something that is not JSON"
        raise ModelError(msg) from None
