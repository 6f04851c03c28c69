"""The HTTP side of the client: JSON over urllib (standard library only), the API key, typed errors."""
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional

from ._api import Operations


class FactledgerError(Exception):
    """An answer of the API that is not a success, or no answer at all (status 0)."""

    def __init__(self, status: int, code: str, message: str, body: Any = None, retry_after: Optional[float] = None):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        #: The stable code: invalid_input, unknown_memory, version_conflict, projection_lag, ...
        self.code = code
        self.message = message
        self.body = body
        #: For invalid_input: each field at fault, as {"path": ..., "message": ...}.
        self.issues: List[Dict[str, str]] = (body or {}).get("issues", []) if isinstance(body, dict) else []
        #: Seconds to wait before a retry, when the server said (503, 429).
        self.retry_after = retry_after


class InvalidInput(FactledgerError):
    """400: nothing was changed; `issues` names each field."""


class Unauthenticated(FactledgerError):
    """401: no usable API key."""


class Forbidden(FactledgerError):
    """403: the key lacks the scope the route needs."""


class NotFound(FactledgerError):
    """404: nothing with that id in this tenant, or a tenant the key does not cover."""


class Conflict(FactledgerError):
    """409: a cardinality conflict, an illegal lifecycle step or a concurrent change."""


class Gone(FactledgerError):
    """410: the memory was erased (`body["erased"]` says when and by which erasure)."""


class RateLimited(FactledgerError):
    """429: over the key's rate limit."""


class Unavailable(FactledgerError):
    """503: not ready (a read model behind minPosition, a dependency unreachable); retry after `retry_after`."""


_BY_STATUS = {400: InvalidInput, 401: Unauthenticated, 403: Forbidden, 404: NotFound, 409: Conflict, 410: Gone, 429: RateLimited, 503: Unavailable}


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return str(value)


class Client(Operations):
    """A client for one server and one API key (a key covers one tenant, or every tenant: an operator's)."""

    def __init__(self, base_url: str, api_key: Optional[str] = None, timeout: float = 30.0):
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout

    def _request(self, method: str, path: str, path_params: Dict[str, str], query: Dict[str, Any], body: Any) -> Any:
        for name, value in path_params.items():
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        pairs = [(k, _query_value(v)) for k, v in query.items() if v is not None]
        url = self.base_url + path + ("?" + urllib.parse.urlencode(pairs) if pairs else "")
        headers = {"Accept": "application/json"}
        data = None
        if body is not None or method == "POST":
            data = json.dumps(body if body is not None else {}).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                text = response.read().decode("utf-8")
                return json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            raise _error_of(error) from None
        except urllib.error.URLError as error:
            raise FactledgerError(0, "unreachable", f"{url}: {error.reason}") from None


def _error_of(error: urllib.error.HTTPError) -> FactledgerError:
    text = error.read().decode("utf-8", "replace")
    try:
        body = json.loads(text)
    except ValueError:
        body = None
    code = body.get("error") if isinstance(body, dict) and isinstance(body.get("error"), str) else f"http_{error.code}"
    message = body.get("message", text) if isinstance(body, dict) else (text or error.reason)
    after = error.headers.get("Retry-After") if error.headers else None
    retry_after = float(after) if after and after.replace(".", "", 1).isdigit() else None
    kind = _BY_STATUS.get(error.code, FactledgerError)
    return kind(error.code, code, str(message), body, retry_after)
