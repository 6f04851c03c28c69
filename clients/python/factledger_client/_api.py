# Generated from clients/openapi.json by `npm run clients:generate` (clients/python-generator.ts).
# Do not edit by hand: change the server's routes or schemas, then generate again.
"""The factledger HTTP API: one method per operation of its contract, on Client (see _client.py)."""
from typing import Any, Dict, List, Literal, Optional, TypedDict


Answer = TypedDict("Answer", {
    "answerId": str,
    "question": str,
    "text": str,
    "citations": List[Dict[str, Any]],
    "status": Literal["answered", "reopened", "reviewed"],
    "reopened": Optional[Dict[str, Any]],
    "recordedAt": str,
    "position": int,
}, total=False)

AnswerWithCitations = TypedDict("AnswerWithCitations", {
    "answerId": str,
    "question": str,
    "text": str,
    "citations": List[Dict[str, Any]],
    "status": Literal["answered", "reopened", "reviewed"],
    "reopened": Optional[Dict[str, Any]],
    "recordedAt": str,
    "position": int,
}, total=False)

AnswerWriteResult = TypedDict("AnswerWriteResult", {
    "answerId": str,
    "position": int,
    "changed": bool,
}, total=False)

AssembleContextBody = TypedDict("AssembleContextBody", {
    "query": str,  # required
    "budgetTokens": int,
    "validAt": str,
    "knownAt": str,
    "minPosition": int,
}, total=False)

AssertInput = TypedDict("AssertInput", {
    "subject": str,
    "relation": str,
    "value": str,
    "text": str,
    "scope": Dict[str, str],
    "validFrom": str,
    "validTo": str,
    "saidAt": str,
    "cardinality": Literal["one", "many"],
    "mode": Literal["update", "correction"],
    "speaker": Literal["user", "assistant", "tool", "document"],
    "source": str,
    "authority": int,
    "type": str,
    "core": bool,
    "dependsOn": List[Any],
    "commandId": str,
    "correlationId": str,
    "causationId": str,
    "batch": str,
}, total=False)

Batch = TypedDict("Batch", {
    "batch": str,
    "events": List[Dict[str, Any]],
    "memories": List["Memory"],
}, total=False)

Belief = TypedDict("Belief", {
    "knownAt": str,
    "validAt": str,
    "subject": Optional[str],
    "memories": List[Dict[str, Any]],
    "truncated": bool,
}, total=False)

BeliefDiff = TypedDict("BeliefDiff", {
    "from": str,
    "to": str,
    "validAt": Optional[str],
    "subject": Optional[str],
    "changes": List[Dict[str, Any]],
    "truncated": bool,
}, total=False)

ClaimVerdict = TypedDict("ClaimVerdict", {
    "verdict": Literal["supported", "distorted", "stale", "fabricated"],
    "says": str,
    "memory": Optional[Dict[str, Any]],
    "current": List[Dict[str, Any]],
    "reason": str,
}, total=False)

ConfirmBody = TypedDict("ConfirmBody", {
    "commandId": str,
    "correlationId": str,
    "causationId": str,
    "batch": str,
    "reason": str,
}, total=False)

ContextItem = TypedDict("ContextItem", {
    "memoryId": str,
    "channel": Literal["profile", "fresh", "detail"],
    "text": str,
    "type": str,
    "speaker": str,
    "source": Optional[str],
    "saidAt": str,
    "note": str,
    "scores": Dict[str, Any],
}, total=False)

ContextResult = TypedDict("ContextResult", {
    "traceId": str,
    "text": str,
    "tokens": int,
    "budgetTokens": int,
    "items": List["ContextItem"],
}, total=False)

ErasureBody = TypedDict("ErasureBody", {
    "memoryId": str,
    "subject": str,
    "all": bool,
}, total=False)

ErasureResult = TypedDict("ErasureResult", {
    "erasureId": Optional[str],
    "target": Literal["memory", "subject", "all"],
    "position": int,
    "erasedAt": Optional[str],
    "memoryIds": List[str],
    "events": int,
    "messages": int,
    "answers": List[str],
    "alreadyErased": bool,
}, total=False)

Error = TypedDict("Error", {
    "error": str,
    "message": str,
    "issues": List[Dict[str, Any]],
    "erased": Dict[str, Any],
    "heldBy": str,
}, total=False)

Fact = TypedDict("Fact", {
    "subject": str,
    "relation": str,
    "scope": Dict[str, str],
    "cardinality": Optional[str],
    "value": Optional[str],
    "values": List[str],
    "versions": List["FactVersion"],
    "validAt": str,
    "knownAt": str,
}, total=False)

FactVersion = TypedDict("FactVersion", {
    "memoryId": str,
    "value": Optional[str],
    "text": str,
    "type": str,
    "speaker": str,
    "source": Optional[str],
    "validFrom": str,
    "validTo": Optional[str],
    "recordedAt": str,
}, total=False)

Health = TypedDict("Health", {
    "status": Literal["ok", "unavailable"],
    "store": Dict[str, Any],
    "migrations": Dict[str, Any],
    "projections": List[Dict[str, Any]],
    "recallIndex": Optional[Dict[str, Any]],
}, total=False)

History = TypedDict("History", {
    "subject": str,
    "relation": str,
    "scope": Dict[str, str],
    "entries": List[Dict[str, Any]],
}, total=False)

IngestMessageInput = TypedDict("IngestMessageInput", {
    "text": str,  # required
    "speaker": Literal["user", "assistant", "tool", "document"],
    "source": str,
    "messageId": str,
    "at": str,
    "correlationId": str,
}, total=False)

IngestResult = TypedDict("IngestResult", {
    "messageId": str,
    "position": int,
    "replayed": bool,
    "actor": Optional[str],
    "kind": Literal["inform", "ask"],
    "topic": str,
    "language": Literal["en", "ko", "other"],
    "speaker": str,
    "source": str,
    "triage": List[str],
    "candidates": List["IngestedCandidate"],
    "stored": List[str],
    "resolved": Dict[str, Any],
    "erased": Optional[str],
    "forgotten": Optional[Dict[str, Any]],
}, total=False)

IngestedCandidate = TypedDict("IngestedCandidate", {
    "verdict": Literal["admitted", "rejected", "retyped"],
    "proposedType": str,
    "type": Optional[str],
    "gates": List[Dict[str, Any]],
    "reason": str,
    "memoryKind": Literal["fact", "prose"],
    "subject": Optional[str],
    "relation": Optional[str],
    "value": Optional[str],
    "text": str,
    "validFrom": str,
    "rule": str,
    "outcome": Optional[str],
    "memoryId": Optional[str],
    "resolution": List["ResolvedMemory"],
}, total=False)

Memory = TypedDict("Memory", {
    "memoryId": str,
    "kind": str,
    "subject": Optional[str],
    "relation": Optional[str],
    "scope": Dict[str, str],
    "value": Optional[str],
    "text": str,
    "type": str,
    "originalType": str,
    "speaker": str,
    "source": Optional[str],
    "authority": int,
    "cardinality": str,
    "core": bool,
    "status": Literal["active", "quarantined", "retired", "overruled"],
    "validFrom": str,
    "validTo": Optional[str],
    "confirmations": int,
    "saidAt": str,
    "recordedAt": str,
    "supersededBy": Optional[str],
    "hiddenParts": List[Dict[str, Any]],
    "dependsOn": List[str],
    "unconfirmed": Optional[Dict[str, Any]],
}, total=False)

MemoryHistory = TypedDict("MemoryHistory", {
    "memoryId": str,
    "entries": List[Dict[str, Any]],
}, total=False)

PartDecision = TypedDict("PartDecision", {
    "memoryId": str,
    "parts": List[Dict[str, Any]],
    "kind": str,
    "earlierValue": str,
    "nextValue": str,
    "rule": str,
}, total=False)

QuarantineBody = TypedDict("QuarantineBody", {
    "commandId": str,
    "correlationId": str,
    "causationId": str,
    "batch": str,
    "reason": str,
}, total=False)

RecallTrace = Dict[str, Any]

RecordAnswerBody = TypedDict("RecordAnswerBody", {
    "answerId": str,
    "question": str,
    "text": str,  # required
    "cites": List[str],
    "commandId": str,
}, total=False)

ResolvedMemory = TypedDict("ResolvedMemory", {
    "memoryId": str,
    "text": str,
    "action": Literal["supersede", "correct", "retract", "keep-both"],
    "rule": str,
    "scores": Dict[str, Any],
    "effect": Literal["retracted", "withdrawn", "kept"],
    "frame": Dict[str, Any],
}, total=False)

RestatementDecision = TypedDict("RestatementDecision", {
    "memoryId": str,
    "text": str,
    "action": Literal["replace", "keep-both"],
    "holds": Literal["one", "many", "unsure"],
    "rule": str,
    "frame": str,
    "earlierValue": str,
    "nextValue": str,
    "score": float,
    "effect": Literal["retracted", "withdrawn", "filled-history", "kept"],
}, total=False)

RestoreBody = TypedDict("RestoreBody", {
    "commandId": str,
    "correlationId": str,
    "causationId": str,
    "batch": str,
    "reason": str,
}, total=False)

RetractInput = TypedDict("RetractInput", {
    "memoryId": str,
    "subject": str,
    "relation": str,
    "value": str,
    "scope": Dict[str, str],
    "validFrom": str,
    "reason": str,
    "commandId": str,
    "correlationId": str,
    "causationId": str,
    "batch": str,
}, total=False)

RetractMemoryBody = TypedDict("RetractMemoryBody", {
    "validFrom": str,
    "reason": str,
    "commandId": str,
    "correlationId": str,
    "causationId": str,
    "batch": str,
}, total=False)

RetypeBody = TypedDict("RetypeBody", {
    "commandId": str,
    "correlationId": str,
    "causationId": str,
    "batch": str,
    "type": str,  # required
    "reason": str,
}, total=False)

ReviewAnswerBody = TypedDict("ReviewAnswerBody", {
    "note": str,
    "commandId": str,
}, total=False)

ReviseAnswerBody = TypedDict("ReviseAnswerBody", {
    "question": str,
    "answer": str,  # required
}, total=False)

Revision = TypedDict("Revision", {
    "answer": str,
    "revisions": int,
    "verdicts": List["ClaimVerdict"],
    "settled": bool,
}, total=False)

RollbackBody = TypedDict("RollbackBody", {
    "commandId": str,
}, total=False)

RollbackResult = TypedDict("RollbackResult", {
    "batch": str,
    "position": int,
    "items": List[Dict[str, Any]],
}, total=False)

Subject = TypedDict("Subject", {
    "subject": str,
    "facts": List[Dict[str, Any]],
    "validAt": str,
    "knownAt": str,
}, total=False)

Verification = TypedDict("Verification", {
    "verdicts": List["ClaimVerdict"],
}, total=False)

VerifyClaimsBody = TypedDict("VerifyClaimsBody", {
    "claims": List[Dict[str, Any]],  # required
    "validAt": str,
}, total=False)

WriteResult = TypedDict("WriteResult", {
    "outcome": Literal["created", "superseded", "corrected", "filled-history", "reinforced", "duplicate", "overruled", "retracted", "quarantined", "restored", "retyped", "parts-superseded", "unconfirmed", "confirmed", "unchanged"],
    "memoryId": str,
    "position": int,
    "replayed": bool,
    "restated": List["RestatementDecision"],
    "replacedParts": List["PartDecision"],
}, total=False)


#: operationId → (HTTP method, path) of every operation the contract names.
OPERATIONS = {
    "assembleContext": ("POST", "/v1/tenants/{tenant}/context"),
    "assertMemory": ("POST", "/v1/tenants/{tenant}/memories"),
    "confirmMemory": ("POST", "/v1/tenants/{tenant}/memories/{memoryId}/confirm"),
    "erase": ("POST", "/v1/tenants/{tenant}/erasures"),
    "getAnswer": ("GET", "/v1/tenants/{tenant}/answers/{answerId}"),
    "getAudit": ("GET", "/v1/tenants/{tenant}/audit"),
    "getAuditDiff": ("GET", "/v1/tenants/{tenant}/audit/diff"),
    "getBatch": ("GET", "/v1/tenants/{tenant}/batches/{batch}"),
    "getFact": ("GET", "/v1/tenants/{tenant}/facts"),
    "getHealth": ("GET", "/health"),
    "getHistory": ("GET", "/v1/tenants/{tenant}/history"),
    "getMemory": ("GET", "/v1/tenants/{tenant}/memories/{memoryId}"),
    "getMemoryHistory": ("GET", "/v1/tenants/{tenant}/memories/{memoryId}/history"),
    "getMessage": ("GET", "/v1/tenants/{tenant}/messages/{messageId}"),
    "getMetrics": ("GET", "/metrics"),
    "getOpenApi": ("GET", "/openapi.json"),
    "getSubject": ("GET", "/v1/tenants/{tenant}/subjects/{subject}"),
    "getTrace": ("GET", "/v1/tenants/{tenant}/traces/{id}"),
    "ingestMessage": ("POST", "/v1/tenants/{tenant}/messages"),
    "listCitingAnswers": ("GET", "/v1/tenants/{tenant}/memories/{memoryId}/answers"),
    "listMemories": ("GET", "/v1/tenants/{tenant}/memories"),
    "listReopenedAnswers": ("GET", "/v1/tenants/{tenant}/answers"),
    "quarantineMemory": ("POST", "/v1/tenants/{tenant}/memories/{memoryId}/quarantine"),
    "recordAnswer": ("POST", "/v1/tenants/{tenant}/answers"),
    "restoreMemory": ("POST", "/v1/tenants/{tenant}/memories/{memoryId}/restore"),
    "retractByKey": ("POST", "/v1/tenants/{tenant}/retractions"),
    "retractMemory": ("POST", "/v1/tenants/{tenant}/memories/{memoryId}/retract"),
    "retypeMemory": ("POST", "/v1/tenants/{tenant}/memories/{memoryId}/retype"),
    "reviewAnswer": ("POST", "/v1/tenants/{tenant}/answers/{answerId}/review"),
    "reviseAnswer": ("POST", "/v1/tenants/{tenant}/answers/revisions"),
    "rollbackBatch": ("POST", "/v1/tenants/{tenant}/batches/{batch}/rollback"),
    "verifyClaims": ("POST", "/v1/tenants/{tenant}/verifications"),
}


class Operations:
    """Every operation of the API; Client supplies _request (HTTP, the key, typed errors)."""

    def _request(self, method: str, path: str, path_params: Dict[str, Any], query: Dict[str, Any], body: Any) -> Any:
        raise NotImplementedError

    def assemble_context(self, tenant: str, *, body: "AssembleContextBody") -> "ContextResult":
        """Assemble the context for a prompt within a token budget (profile, fresh and detail channels)

        POST /v1/tenants/{tenant}/context
        """
        return self._request("POST", "/v1/tenants/{tenant}/context", {"tenant": tenant}, {}, body)

    def assert_memory(self, tenant: str, *, body: "AssertInput") -> "WriteResult":
        """Assert a fact (subject, relation, value) or a prose memory

        POST /v1/tenants/{tenant}/memories
        """
        return self._request("POST", "/v1/tenants/{tenant}/memories", {"tenant": tenant}, {}, body)

    def confirm_memory(self, tenant: str, memory_id: str, *, body: Optional["ConfirmBody"] = None) -> "WriteResult":
        """Confirm a memory marked unconfirmed (what it hung on changed): it holds after all

        POST /v1/tenants/{tenant}/memories/{memoryId}/confirm
        """
        return self._request("POST", "/v1/tenants/{tenant}/memories/{memoryId}/confirm", {"tenant": tenant, "memoryId": memory_id}, {}, body)

    def erase(self, tenant: str, *, body: "ErasureBody") -> "ErasureResult":
        """Erase a memory, a subject's memories or the tenant's: their words leave the log and every read model (admin scope)

        POST /v1/tenants/{tenant}/erasures
        """
        return self._request("POST", "/v1/tenants/{tenant}/erasures", {"tenant": tenant}, {}, body)

    def get_answer(self, tenant: str, answer_id: str, *, min_position: Optional[int] = None) -> "AnswerWithCitations":
        """One answer, its citations as they were and what became of each

        GET /v1/tenants/{tenant}/answers/{answerId}
        """
        return self._request("GET", "/v1/tenants/{tenant}/answers/{answerId}", {"tenant": tenant, "answerId": answer_id}, {"minPosition": min_position}, None)

    def get_audit(self, tenant: str, *, known_at: Optional[str] = None, valid_at: Optional[str] = None, subject: Optional[str] = None, limit: Optional[int] = None, min_position: Optional[int] = None) -> "Belief":
        """What the ledger believed: every memory of the tenant (or of one subject) as known at knownAt, true at validAt

        GET /v1/tenants/{tenant}/audit

        known_at (knownAt): Transaction time: as the ledger knew it then. Default: now.
        valid_at (validAt): Valid time: what was true then. Default: knownAt.
        limit: At most this many rows (changes, for the diff); default 1,000, at most 10,000.
        min_position (minPosition): Never answer from a state older than this log position.
        """
        return self._request("GET", "/v1/tenants/{tenant}/audit", {"tenant": tenant}, {"knownAt": known_at, "validAt": valid_at, "subject": subject, "limit": limit, "minPosition": min_position}, None)

    def get_audit_diff(self, tenant: str, *, from_: str, to: str, valid_at: Optional[str] = None, subject: Optional[str] = None, limit: Optional[int] = None, min_position: Optional[int] = None) -> "BeliefDiff":
        """What changed in what the ledger believed between two transaction times, each change with its events, batch and actor

        GET /v1/tenants/{tenant}/audit/diff

        from_ (from): The earlier transaction time.
        to: The later transaction time.
        valid_at (validAt): Valid time for both sides. Default: each side at its own moment (what the agent would have been told then).
        limit: At most this many rows (changes, for the diff); default 1,000, at most 10,000.
        min_position (minPosition): Never answer from a state older than this log position.
        """
        return self._request("GET", "/v1/tenants/{tenant}/audit/diff", {"tenant": tenant}, {"from": from_, "to": to, "validAt": valid_at, "subject": subject, "limit": limit, "minPosition": min_position}, None)

    def get_batch(self, tenant: str, batch: str, *, min_position: Optional[int] = None) -> "Batch":
        """What a batch label covers: every event that carried it, and the memories they touched as they stand

        GET /v1/tenants/{tenant}/batches/{batch}

        min_position (minPosition): Never answer from a state older than this log position.
        """
        return self._request("GET", "/v1/tenants/{tenant}/batches/{batch}", {"tenant": tenant, "batch": batch}, {"minPosition": min_position}, None)

    def get_fact(self, tenant: str, *, subject: str, relation: str, valid_at: Optional[str] = None, known_at: Optional[str] = None, min_position: Optional[int] = None, scope: Optional[str] = None) -> "Fact":
        """A key (subject, relation, scope) as of valid time and transaction time

        GET /v1/tenants/{tenant}/facts

        valid_at (validAt): Valid time: what was true then. Default: now.
        known_at (knownAt): Transaction time: as the ledger knew it then. Default: now.
        min_position (minPosition): Never answer from a state older than this log position.
        scope: Scope as a JSON object of strings.
        """
        return self._request("GET", "/v1/tenants/{tenant}/facts", {"tenant": tenant}, {"subject": subject, "relation": relation, "validAt": valid_at, "knownAt": known_at, "minPosition": min_position, "scope": scope}, None)

    def get_health(self) -> "Health":
        """Readiness: store, migrations, projection lag

        GET /health
        """
        return self._request("GET", "/health", {}, {}, None)

    def get_history(self, tenant: str, *, subject: str, relation: str, min_position: Optional[int] = None, scope: Optional[str] = None) -> "History":
        """A key's full bitemporal history, with the event that opened and closed each version

        GET /v1/tenants/{tenant}/history

        min_position (minPosition): Never answer from a state older than this log position.
        scope: Scope as a JSON object of strings.
        """
        return self._request("GET", "/v1/tenants/{tenant}/history", {"tenant": tenant}, {"subject": subject, "relation": relation, "minPosition": min_position, "scope": scope}, None)

    def get_memory(self, tenant: str, memory_id: str, *, min_position: Optional[int] = None) -> "Memory":
        """One memory, in any status

        GET /v1/tenants/{tenant}/memories/{memoryId}

        min_position (minPosition): Never answer from a state older than this log position.
        """
        return self._request("GET", "/v1/tenants/{tenant}/memories/{memoryId}", {"tenant": tenant, "memoryId": memory_id}, {"minPosition": min_position}, None)

    def get_memory_history(self, tenant: str, memory_id: str, *, min_position: Optional[int] = None) -> "MemoryHistory":
        """The bitemporal history of a memory's stream (its key's, or a prose memory's own), with why each row closed

        GET /v1/tenants/{tenant}/memories/{memoryId}/history

        min_position (minPosition): Never answer from a state older than this log position.
        """
        return self._request("GET", "/v1/tenants/{tenant}/memories/{memoryId}/history", {"tenant": tenant, "memoryId": memory_id}, {"minPosition": min_position}, None)

    def get_message(self, tenant: str, message_id: str) -> "IngestResult":
        """The stored record of an ingested message: its triage and every admission decision

        GET /v1/tenants/{tenant}/messages/{messageId}
        """
        return self._request("GET", "/v1/tenants/{tenant}/messages/{messageId}", {"tenant": tenant, "messageId": message_id}, {}, None)

    def get_metrics(self) -> Any:
        """Prometheus metrics: requests, commands, appends, consumer lag, recall latency, admission decisions, process memory

        GET /metrics
        """
        return self._request("GET", "/metrics", {}, {}, None)

    def get_open_api(self) -> Dict[str, Any]:
        """This document

        GET /openapi.json
        """
        return self._request("GET", "/openapi.json", {}, {}, None)

    def get_subject(self, tenant: str, subject: str, *, valid_at: Optional[str] = None, known_at: Optional[str] = None, min_position: Optional[int] = None) -> "Subject":
        """Every fact of a subject as of valid time and transaction time

        GET /v1/tenants/{tenant}/subjects/{subject}

        valid_at (validAt): Valid time: what was true then. Default: now.
        known_at (knownAt): Transaction time: as the ledger knew it then. Default: now.
        min_position (minPosition): Never answer from a state older than this log position.
        """
        return self._request("GET", "/v1/tenants/{tenant}/subjects/{subject}", {"tenant": tenant, "subject": subject}, {"validAt": valid_at, "knownAt": known_at, "minPosition": min_position}, None)

    def get_trace(self, tenant: str, id: str) -> "RecallTrace":
        """How one context was assembled, stage by stage

        GET /v1/tenants/{tenant}/traces/{id}
        """
        return self._request("GET", "/v1/tenants/{tenant}/traces/{id}", {"tenant": tenant, "id": id}, {}, None)

    def ingest_message(self, tenant: str, *, body: "IngestMessageInput") -> "IngestResult":
        """Ingest a raw chat message: triage, extraction and admission gates; the admitted memories and the record of every decision in one append

        POST /v1/tenants/{tenant}/messages
        """
        return self._request("POST", "/v1/tenants/{tenant}/messages", {"tenant": tenant}, {}, body)

    def list_citing_answers(self, tenant: str, memory_id: str, *, min_position: Optional[int] = None) -> List["Answer"]:
        """The answers that cited this memory version

        GET /v1/tenants/{tenant}/memories/{memoryId}/answers
        """
        return self._request("GET", "/v1/tenants/{tenant}/memories/{memoryId}/answers", {"tenant": tenant, "memoryId": memory_id}, {"minPosition": min_position}, None)

    def list_memories(self, tenant: str, *, limit: Optional[int] = None, status: Optional[Literal["active", "quarantined", "retired", "overruled"]] = None, min_position: Optional[int] = None) -> List["Memory"]:
        """The active memories, newest first

        GET /v1/tenants/{tenant}/memories

        limit: At most this many, newest first (default 100).
        status: Default `active`: the memories in the read paths now. Any other status: the memories that have it, whatever their valid time.
        min_position (minPosition): Never answer from a state older than this log position.
        """
        return self._request("GET", "/v1/tenants/{tenant}/memories", {"tenant": tenant}, {"limit": limit, "status": status, "minPosition": min_position}, None)

    def list_reopened_answers(self, tenant: str, *, min_position: Optional[int] = None) -> List["Answer"]:
        """Answers reopened by the re-review saga and not reviewed yet

        GET /v1/tenants/{tenant}/answers
        """
        return self._request("GET", "/v1/tenants/{tenant}/answers", {"tenant": tenant}, {"minPosition": min_position}, None)

    def quarantine_memory(self, tenant: str, memory_id: str, *, body: Optional["QuarantineBody"] = None) -> "WriteResult":
        """Quarantine a memory: out of every read path, kept, restorable

        POST /v1/tenants/{tenant}/memories/{memoryId}/quarantine
        """
        return self._request("POST", "/v1/tenants/{tenant}/memories/{memoryId}/quarantine", {"tenant": tenant, "memoryId": memory_id}, {}, body)

    def record_answer(self, tenant: str, *, body: "RecordAnswerBody") -> "AnswerWriteResult":
        """Record an answer with the memory versions it cited (pinned as they are now)

        POST /v1/tenants/{tenant}/answers
        """
        return self._request("POST", "/v1/tenants/{tenant}/answers", {"tenant": tenant}, {}, body)

    def restore_memory(self, tenant: str, memory_id: str, *, body: Optional["RestoreBody"] = None) -> "WriteResult":
        """Restore a quarantined memory

        POST /v1/tenants/{tenant}/memories/{memoryId}/restore
        """
        return self._request("POST", "/v1/tenants/{tenant}/memories/{memoryId}/restore", {"tenant": tenant, "memoryId": memory_id}, {}, body)

    def retract_by_key(self, tenant: str, *, body: "RetractInput") -> "WriteResult":
        """Retract a value by its key (subject, relation, value, scope) or by memoryId

        POST /v1/tenants/{tenant}/retractions
        """
        return self._request("POST", "/v1/tenants/{tenant}/retractions", {"tenant": tenant}, {}, body)

    def retract_memory(self, tenant: str, memory_id: str, *, body: Optional["RetractMemoryBody"] = None) -> "WriteResult":
        """Retract a memory from validFrom on (default now)

        POST /v1/tenants/{tenant}/memories/{memoryId}/retract
        """
        return self._request("POST", "/v1/tenants/{tenant}/memories/{memoryId}/retract", {"tenant": tenant, "memoryId": memory_id}, {}, body)

    def retype_memory(self, tenant: str, memory_id: str, *, body: "RetypeBody") -> "WriteResult":
        """Give a memory another type (the original type is kept)

        POST /v1/tenants/{tenant}/memories/{memoryId}/retype
        """
        return self._request("POST", "/v1/tenants/{tenant}/memories/{memoryId}/retype", {"tenant": tenant, "memoryId": memory_id}, {}, body)

    def review_answer(self, tenant: str, answer_id: str, *, body: Optional["ReviewAnswerBody"] = None) -> "AnswerWriteResult":
        """Mark a reopened answer reviewed

        POST /v1/tenants/{tenant}/answers/{answerId}/review
        """
        return self._request("POST", "/v1/tenants/{tenant}/answers/{answerId}/review", {"tenant": tenant, "answerId": answer_id}, {}, body)

    def revise_answer(self, tenant: str, *, body: "ReviseAnswerBody") -> "Revision":
        """Optional (needs a language model): extract an answer's claims, verify them, rewrite it while they fail, up to a cap

        POST /v1/tenants/{tenant}/answers/revisions
        """
        return self._request("POST", "/v1/tenants/{tenant}/answers/revisions", {"tenant": tenant}, {}, body)

    def rollback_batch(self, tenant: str, batch: str, *, body: Optional["RollbackBody"] = None) -> "RollbackResult":
        """Roll back a batch's lifecycle changes by compensating events (admin scope)

        POST /v1/tenants/{tenant}/batches/{batch}/rollback
        """
        return self._request("POST", "/v1/tenants/{tenant}/batches/{batch}/rollback", {"tenant": tenant, "batch": batch}, {}, body)

    def verify_claims(self, tenant: str, *, body: "VerifyClaimsBody") -> "Verification":
        """Verify an answer's claims: supported, distorted, stale or fabricated, one verdict per claim

        POST /v1/tenants/{tenant}/verifications
        """
        return self._request("POST", "/v1/tenants/{tenant}/verifications", {"tenant": tenant}, {}, body)
