"""The HTTP side of the client: JSON over urllib (standard library only), the API key, typed errors."""
import http.client
import json
import urllib.error
import urllib.parse
import urllib.request
from datetime import date, datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Dict, List, Optional

from ._api import Operations


class FactledgerError(Exception):
    """An answer of the API that is not a success, or no usable answer at all (status 0)."""

    def __init__(self, status: int, code: str, message: str, body: Any = None, retry_after: Optional[float] = None):
        super().__init__(f"{status} {code}: {message}" if status else f"{code}: {message}")
        #: The HTTP status; 0 when the server could not be reached or its answer could not be read.
        self.status = status
        #: The stable code: invalid_input, unknown_memory, version_conflict, projection_lag, ...;
        #: unreachable or invalid_response when there was no usable answer.
        self.code = code
        self.message = message
        #: The whole error body as the server sent it (parsed JSON), or None.
        self.body = body
        #: For invalid_input: each field at fault, as {"path": ..., "message": ...}.
        self.issues: List[Dict[str, Any]] = (body.get("issues") or []) if isinstance(body, dict) else []
        #: Seconds to wait before a retry, when the server said (503, 429).
        self.retry_after = retry_after


class InvalidInput(FactledgerError):
    """400: nothing was changed; `issues` names each field at fault."""


class Unauthenticated(FactledgerError):
    """401: no API key, or one the server does not know (wrong, revoked, expired)."""


class Forbidden(FactledgerError):
    """403: the key lacks the scope the route needs (admin, say)."""


class NotFound(FactledgerError):
    """404: nothing with that id in this tenant (`code` says what: unknown_memory, ...), or a tenant the key does not cover (not_found)."""


class Conflict(FactledgerError):
    """409: a cardinality conflict, an illegal lifecycle step or a concurrent change."""


class Gone(FactledgerError):
    """410: the memory was erased (`body["erased"]` says when and by which erasure)."""


class RateLimited(FactledgerError):
    """429: over the key's rate limit; retry after `retry_after`."""


class Unavailable(FactledgerError):
    """503: not ready (a read model behind minPosition, a dependency unreachable); retry after `retry_after`."""


_BY_STATUS = {400: InvalidInput, 401: Unauthenticated, 403: Forbidden, 404: NotFound, 409: Conflict, 410: Gone, 429: RateLimited, 503: Unavailable}


def _instant(value: Any) -> Any:
    # The server reads ISO 8601; str(datetime) would put a space where the T goes. A naive datetime
    # is taken as UTC, as the server would take a time without an offset.
    if isinstance(value, datetime):
        return (value if value.tzinfo else value.replace(tzinfo=timezone.utc)).isoformat()
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _query_value(value: Any) -> str:
    # The server parses query strings: booleans as true/false, a scope as a JSON object.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    if isinstance(value, (datetime, date)):
        return _instant(value)
    return str(value)


class Client(Operations):
    """A client for one server and one API key (a key covers one tenant, or every tenant: an operator's).

    Every method of the API is on it (see _api.py); each returns the parsed JSON answer or raises a
    FactledgerError (InvalidInput, NotFound, ...).
    """

    def __init__(self, base_url: str, api_key: Optional[str] = None, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout

    def _request(self, method: str, path: str, path_params: Dict[str, Any], query: Dict[str, Any], body: Any) -> Any:
        for name, value in path_params.items():
            # safe="": a slash or a question mark in an id stays inside its path segment.
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        pairs = [(key, _query_value(value)) for key, value in query.items() if value is not None]
        url = self.base_url + path + ("?" + urllib.parse.urlencode(pairs) if pairs else "")
        headers = {"Accept": "application/json"}
        data = None
        # A POST whose body is optional still sends an empty object: the server parses JSON bodies.
        if body is not None or method in ("POST", "PUT", "PATCH"):
            data = json.dumps({} if body is None else body, default=_instant).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            raise _error_of(error, method, url) from None
        except urllib.error.URLError as error:
            raise FactledgerError(0, "unreachable", f"{method} {url}: {error.reason}") from error
        except (OSError, http.client.HTTPException) as error:
            # A timeout or a dropped connection after the request went out: the write may have happened.
            raise FactledgerError(0, "unreachable", f"{method} {url}: {error!r}") from error
        if not raw:
            return None
        try:
            return json.loads(raw.decode("utf-8"))
        except ValueError:
            raise FactledgerError(status, "invalid_response", f"{method} {url} answered {status} with no JSON: {_excerpt(raw)}") from None


def _excerpt(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace").strip()
    return text if len(text) <= 200 else text[:200] + "…"


def _retry_after(value: Optional[str]) -> Optional[float]:
    # Seconds, or an HTTP date (RFC 9110 allows both).
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, (moment - datetime.now(timezone.utc)).total_seconds()) if moment.tzinfo else None


def _error_of(error: urllib.error.HTTPError, method: str, url: str) -> FactledgerError:
    raw = error.read()
    try:
        body = json.loads(raw.decode("utf-8"))
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), str):
        code, message = body["error"], str(body.get("message", body["error"]))
    else:
        # Not the API's error shape: a proxy's page, say. Say what came back.
        code, message = f"http_{error.code}", f"{method} {url} answered {error.code} {error.reason}: {_excerpt(raw) or 'no body'}"
    kind = _BY_STATUS.get(error.code, FactledgerError)
    return kind(error.code, code, message, body, _retry_after(error.headers.get("Retry-After") if error.headers else None))
