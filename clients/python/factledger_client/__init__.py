"""factledger's HTTP API from Python: `Client(base_url, api_key)`, one method per operation, typed errors.

The request and answer shapes are TypedDicts in `factledger_client._api` (generated from the contract).
"""
from ._api import OPERATIONS
from ._client import Client, Conflict, FactledgerError, Forbidden, Gone, InvalidInput, NotFound, RateLimited, Unauthenticated, Unavailable

__all__ = ["Client", "OPERATIONS", "FactledgerError", "InvalidInput", "Unauthenticated", "Forbidden", "NotFound", "Conflict", "Gone", "RateLimited", "Unavailable"]
