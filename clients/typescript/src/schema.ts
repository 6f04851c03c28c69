// Generated from clients/openapi.json by `npm run clients:generate` (openapi-typescript). Do not edit.
export interface paths {
    "/v1/tenants/{tenant}/memories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The active memories, newest first */
        get: operations["listMemories"];
        put?: never;
        /** Assert a fact (subject, relation, value) or a prose memory */
        post: operations["assertMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/memories/{memoryId}/quarantine": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Quarantine a memory: out of every read path, kept, restorable */
        post: operations["quarantineMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/memories/{memoryId}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore a quarantined memory */
        post: operations["restoreMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/memories/{memoryId}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm a memory marked unconfirmed (what it hung on changed): it holds after all */
        post: operations["confirmMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/memories/{memoryId}/retype": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Give a memory another type (the original type is kept) */
        post: operations["retypeMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/memories/{memoryId}/retract": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retract a memory from validFrom on (default now) */
        post: operations["retractMemory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/retractions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retract a value by its key (subject, relation, value, scope) or by memoryId */
        post: operations["retractByKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/memories/{memoryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One memory, in any status */
        get: operations["getMemory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/memories/{memoryId}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The bitemporal history of a memory's stream (its key's, or a prose memory's own), with why each row closed */
        get: operations["getMemoryHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Ingest a raw chat message: triage, extraction and admission gates; the admitted memories and the record of every decision in one append */
        post: operations["ingestMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/messages/{messageId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The stored record of an ingested message: its triage and every admission decision */
        get: operations["getMessage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Answers reopened by the re-review saga and not reviewed yet */
        get: operations["listReopenedAnswers"];
        put?: never;
        /** Record an answer with the memory versions it cited (pinned as they are now) */
        post: operations["recordAnswer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/answers/{answerId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One answer, its citations as they were and what became of each */
        get: operations["getAnswer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/answers/{answerId}/review": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark a reopened answer reviewed */
        post: operations["reviewAnswer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/memories/{memoryId}/answers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The answers that cited this memory version */
        get: operations["listCitingAnswers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/answers/revisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Optional (needs a language model): extract an answer's claims, verify them, rewrite it while they fail, up to a cap */
        post: operations["reviseAnswer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/verifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify an answer's claims: supported, distorted, stale or fabricated, one verdict per claim */
        post: operations["verifyClaims"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/facts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A key (subject, relation, scope) as of valid time and transaction time */
        get: operations["getFact"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/subjects/{subject}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every fact of a subject as of valid time and transaction time */
        get: operations["getSubject"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A key's full bitemporal history, with the event that opened and closed each version */
        get: operations["getHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the ledger believed: every memory of the tenant (or of one subject) as known at knownAt, true at validAt */
        get: operations["getAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/audit/diff": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What changed in what the ledger believed between two transaction times, each change with its events, batch and actor */
        get: operations["getAuditDiff"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/batches/{batch}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What a batch label covers: every event that carried it, and the memories they touched as they stand */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/batches/{batch}/rollback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Roll back a batch's lifecycle changes by compensating events (admin scope) */
        post: operations["rollbackBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/erasures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Erase a memory, a subject's memories or the tenant's: their words leave the log and every read model (admin scope) */
        post: operations["erase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/context": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Assemble the context for a prompt within a token budget (profile, fresh and detail channels) */
        post: operations["assembleContext"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tenants/{tenant}/traces/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How one context was assembled, stage by stage */
        get: operations["getTrace"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: store, migrations, projection lag */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics: requests, commands, appends, consumer lag, recall latency, admission decisions, process memory */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document */
        get: operations["getOpenApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        WriteResult: {
            /**
             * @description What the write did: created, superseded, reinforced, duplicate, quarantined, …
             * @example created
             * @enum {string}
             */
            outcome: "created" | "superseded" | "corrected" | "filled-history" | "reinforced" | "duplicate" | "overruled" | "retracted" | "quarantined" | "restored" | "retyped" | "parts-superseded" | "unconfirmed" | "confirmed" | "unchanged";
            memoryId: string;
            /** @description Log position of the write; pass it as minPosition to read your own write. */
            position: number;
            /** @description The commandId was seen before; nothing new was appended. */
            replayed: boolean;
            /** @description For prose: the earlier memories it restates with another value (frame alignment), and what was done to each; replaced ones carry the batch label `restatement:<memoryId>` unless the write gave one. */
            restated?: components["schemas"]["RestatementDecision"][];
            /** @description For prose: statements inside earlier memories of the same speaker that it changes (a value said to hold now, of the same shape and topic); in the same batch as the restatements. */
            replacedParts?: components["schemas"]["PartDecision"][];
        };
        RestatementDecision: {
            /** @description The earlier memory the statement was aligned with. */
            memoryId: string;
            /** @description The earlier memory's text. */
            text: string;
            /** @enum {string} */
            action: "replace" | "keep-both";
            /**
             * @description What the frame was judged to hold: one value, a set, or unsure.
             * @enum {string}
             */
            holds: "one" | "many" | "unsure";
            /** @description The rule that decided, in words. */
            rule: string;
            /**
             * @description The shared frame, the value's place marked "…".
             * @example staging database runs on …
             */
            frame: string;
            earlierValue: string;
            nextValue: string;
            /** @description Share of the two statements' tokens the frame covers. */
            score: number;
            /** @enum {string} */
            effect: "retracted" | "withdrawn" | "filled-history" | "kept";
        };
        PartDecision: {
            /** @description The earlier memory whose statements were replaced; its text stays whole on record. */
            memoryId: string;
            /** @description The replaced statements: spans of its text, left out of what recall shows from now on. */
            parts: {
                start: number;
                end: number;
                text: string;
            }[];
            /** @description The shape of the value: quantity, count, date, time, version, ordinal. */
            kind: string;
            earlierValue: string;
            nextValue: string;
            rule: string;
        };
        Error: {
            /** @description Stable code: invalid_input, unknown_memory, memory_erased, unknown_batch, unknown_message, cardinality_conflict, illegal_lifecycle, slot_taken, version_conflict, projection_lag, … */
            error: string;
            message: string;
            /** @description invalid_input only: what is wrong, field by field. */
            issues?: {
                path: string;
                message: string;
            }[];
            /** @description memory_erased only: which erasure took the memory, when, and by which key. */
            erased?: {
                erasureId: string;
                erasedAt: string;
                position: number;
                actor: string | null;
            };
            /** @description slot_taken only: the memory that holds the slot a restore asked for (the same key from the same start). */
            heldBy?: string;
        };
        AssertInput: {
            subject?: string;
            relation?: string;
            value?: string;
            text?: string;
            scope?: {
                [key: string]: string;
            };
            /** @example 2026-03-01 */
            validFrom?: string;
            /** @example 2026-03-01 */
            validTo?: string;
            /**
             * @description When the statement was said (a message's time, a document's date), not when it is recorded. Default: validFrom when given (now when that is later), else now. Without validFrom the statement said no start: it holds from saidAt, and a later statement said after it may date a change before it.
             * @example 2026-03-01
             */
            saidAt?: string;
            /** @enum {string} */
            cardinality?: "one" | "many";
            /**
             * @default update
             * @enum {string}
             */
            mode?: "update" | "correction";
            /**
             * @default user
             * @enum {string}
             */
            speaker?: "user" | "assistant" | "tool" | "document";
            source?: string;
            /** @default 0 */
            authority?: number;
            /**
             * @default fact
             * @example preference
             */
            type?: string;
            /** @default false */
            core?: boolean;
            /** @description The memories this one hangs on, by id or by key (its current version): when one changes, this one is marked unconfirmed (or a rule applies). */
            dependsOn?: (string | {
                subject: string;
                relation: string;
                scope?: {
                    [key: string]: string;
                };
            })[];
            /** @description Retrying with the same id appends nothing twice. */
            commandId?: string;
            correlationId?: string;
            causationId?: string;
            /** @description Label that groups lifecycle changes for rollback. */
            batch?: string;
        };
        QuarantineBody: {
            /** @description Retrying with the same id appends nothing twice. */
            commandId?: string;
            correlationId?: string;
            causationId?: string;
            /** @description Label that groups lifecycle changes for rollback. */
            batch?: string;
            reason?: string;
        };
        RestoreBody: {
            /** @description Retrying with the same id appends nothing twice. */
            commandId?: string;
            correlationId?: string;
            causationId?: string;
            /** @description Label that groups lifecycle changes for rollback. */
            batch?: string;
            reason?: string;
        };
        ConfirmBody: {
            /** @description Retrying with the same id appends nothing twice. */
            commandId?: string;
            correlationId?: string;
            causationId?: string;
            /** @description Label that groups lifecycle changes for rollback. */
            batch?: string;
            reason?: string;
        };
        RetypeBody: {
            /** @description Retrying with the same id appends nothing twice. */
            commandId?: string;
            correlationId?: string;
            causationId?: string;
            /** @description Label that groups lifecycle changes for rollback. */
            batch?: string;
            /** @example preference */
            type: string;
            reason?: string;
        };
        RetractMemoryBody: {
            /** @example 2026-03-01 */
            validFrom?: string;
            reason?: string;
            /** @description Retrying with the same id appends nothing twice. */
            commandId?: string;
            correlationId?: string;
            causationId?: string;
            /** @description Label that groups lifecycle changes for rollback. */
            batch?: string;
        };
        RetractInput: {
            memoryId?: string;
            subject?: string;
            relation?: string;
            value?: string;
            scope?: {
                [key: string]: string;
            };
            /** @example 2026-03-01 */
            validFrom?: string;
            reason?: string;
            /** @description Retrying with the same id appends nothing twice. */
            commandId?: string;
            correlationId?: string;
            causationId?: string;
            /** @description Label that groups lifecycle changes for rollback. */
            batch?: string;
        };
        Memory: {
            memoryId: string;
            kind: string;
            subject: string | null;
            relation: string | null;
            scope: {
                [key: string]: string;
            };
            value: string | null;
            text: string;
            type: string;
            originalType: string;
            speaker: string;
            source: string | null;
            authority: number;
            cardinality: string;
            core: boolean;
            /**
             * @example active
             * @enum {string}
             */
            status: "active" | "quarantined" | "retired" | "overruled";
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            validFrom: string;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            validTo: string | null;
            confirmations: number;
            /**
             * Format: date-time
             * @description When the statement was said (a message's time, a document's date); `recordedAt` is when the ledger learned it.
             * @example 2026-03-01T00:00:00.000Z
             */
            saidAt: string;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            recordedAt: string;
            supersededBy: string | null;
            /** @description Statements inside its text that newer memories replaced (the text stays whole): recall leaves them out from `from` (valid time), as known from `at` until `undoneAt` (a rollback). */
            hiddenParts: {
                start: number;
                end: number;
                text: string;
                by: string;
                from: string;
                at: string;
                undoneAt: string | null;
            }[];
            /** @description The memories it hangs on: when one changes, it is marked unconfirmed (or a rule applies). */
            dependsOn: string[];
            /** @description While a memory it hangs on (`premise`) has changed since (`event` at log `position`, `by` the memory that took its place): it stays in the read paths, shown with why. Null when confirmed. */
            unconfirmed: {
                premise: string;
                by: string | null;
                event: string;
                position: number;
                depth: number;
            } | null;
        };
        MemoryHistory: {
            memoryId: string;
            entries: {
                memoryId: string;
                value: string | null;
                text: string;
                type: string;
                /** @description The memory's status now, as GET /memories/{id} gives it: active, retired, quarantined or overruled. */
                status: string;
                /** @description How this row shows its version over its valid period while it was known: active, quarantined or overruled. */
                shownAs: string;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                validFrom: string;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                validTo: string | null;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                knownFrom: string | null;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                knownTo: string | null;
                openedBy: {
                    position: number;
                    event: string;
                    /** @description Who caused the event: the id of the API key of the request (never its secret), or the actor id a host application passed; null when nobody was named. */
                    actor: string | null;
                    /** @description Its batch label: what `rollback` takes to undo it. */
                    batch: string | null;
                    /** @description The causation id the write carried (what caused it: a message, a ticket); null when none. */
                    causation: string | null;
                };
                closedBy: {
                    position: number;
                    event: string;
                    /** @description Who caused the event: the id of the API key of the request (never its secret), or the actor id a host application passed; null when nobody was named. */
                    actor: string | null;
                    /** @description Its batch label: what `rollback` takes to undo it. */
                    batch: string | null;
                    /** @description The causation id the write carried (what caused it: a message, a ticket); null when none. */
                    causation: string | null;
                    /** @description The closing event's reason (a retraction by resolution names the message and the rule). */
                    reason: string | null;
                    /** @description The memory that took its place: the superseding or correcting version, or the statement that replaced it (a restatement, a change in other words). */
                    by: string | null;
                } | null;
            }[];
        };
        IngestResult: {
            messageId: string;
            /** @description Log position of the record and its memories; pass it as minPosition to read them. */
            position: number;
            /** @description This messageId was ingested before; this is the stored record and nothing new was appended. */
            replayed: boolean;
            /** @description Who sent the message: the API key id of the request, or a host application's actor id. */
            actor: string | null;
            /**
             * @description A question (ask) is never a source of memories.
             * @enum {string}
             */
            kind: "inform" | "ask";
            /** @example home */
            topic: string;
            /** @enum {string} */
            language: "en" | "ko" | "other";
            speaker: string;
            source: string;
            /** @description Why the message was judged informing or asking. */
            triage: string[];
            candidates: components["schemas"]["IngestedCandidate"][];
            /** @description The memories the message is now in: new versions or confirmations of existing ones. */
            stored: string[];
            /** @description Earlier memories retired because the message changed them in other words, resembling ones kept as unsure, and the batch label that rolls the retirements back. */
            resolved: {
                retired: number;
                keptUnsure: number;
                batch: string | null;
            };
            /** @description The erasure that emptied this record (it produced an erased memory): every text is gone, ids and decisions stay. */
            erased: string | null;
            /** @description What the message's requests to forget took away (ids and counts, never words); null when it made none. Over the chat only the user's own memories (and the assistant's repeats of them) are reached: see docs/security.md, Erasure. */
            forgotten: {
                /** @description Sentences of the user's that asked to forget ("please erase that from your memory", "don't keep my passport number", "그거 지워줘"): stored nowhere. */
                requests: number;
                /** @description Statements of this message a request named ("My PIN is 1234. Forget that."): in no memory, and left out of the record's text. */
                statements: number;
                /** @description The earlier memories taken away: the user's that a request named, and the assistant's turns that repeat a value of them (an erased fact with every version of it). */
                memoryIds: string[];
                /**
                 * @description erased: their words are gone, as POST /erasures leaves them; quarantined: a log that cannot be rewritten (KurrentDB) keeps their words, out of every read and context.
                 * @enum {string}
                 */
                how: "erased" | "quarantined";
                erasureId: string | null;
                /** @description Requests that named several memories with nothing to tell them apart (say "my address" for a home and an office address): nothing was taken for them; erase the one meant by id, or say which. */
                ambiguous: {
                    memoryIds: string[];
                }[];
                /** @description Requests that named nothing the user had said. */
                unmatched: number;
            } | null;
        };
        IngestedCandidate: {
            /** @enum {string} */
            verdict: "admitted" | "rejected" | "retyped";
            /** @description The type extraction proposed first. */
            proposedType: string;
            /** @description The type it was stored as; null when rejected. */
            type: string | null;
            /** @description Every gate it met, passed or failed, in order. */
            gates: {
                /** @example role-play guard */
                gate: string;
                passed: boolean;
                detail: string;
            }[];
            reason: string;
            /** @enum {string} */
            memoryKind: "fact" | "prose";
            subject: string | null;
            relation: string | null;
            value: string | null;
            text: string;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            validFrom: string;
            /** @description The extraction rule that produced it. */
            rule: string;
            /**
             * @description What the write did (created, superseded, reinforced, duplicate, …); null when nothing was written.
             * @enum {string|null}
             */
            outcome: "created" | "superseded" | "corrected" | "filled-history" | "reinforced" | "duplicate" | "overruled" | "retracted" | "quarantined" | "restored" | "retyped" | "parts-superseded" | "unconfirmed" | "confirmed" | "unchanged" | null;
            memoryId: string | null;
            /** @description Earlier memories this candidate changes in other words (retired) or resembles without enough evidence (kept); absent when resolution did not run. */
            resolution?: components["schemas"]["ResolvedMemory"][];
        };
        ResolvedMemory: {
            memoryId: string;
            text: string;
            /** @enum {string} */
            action: "supersede" | "correct" | "retract" | "keep-both";
            /** @description Why, in words: the slot, the values and the cue it rested on. */
            rule: string;
            scores: {
                slotOverlap: number;
                sharedClasses: string[];
                valueKind: string | null;
                oldValue: string | null;
                newValue: string | null;
            };
            /**
             * @description retracted from the statement's valid time; withdrawn (a correction: it never held); kept.
             * @enum {string}
             */
            effect: "retracted" | "withdrawn" | "kept";
            /** @description When frame alignment decided (the same sentence with one value changed): the shared frame, what it holds, the alignment score, and the effect. */
            frame?: {
                frame: string;
                /** @enum {string} */
                holds: "one" | "many" | "unsure";
                score: number;
                /** @enum {string} */
                effect: "retracted" | "withdrawn" | "filled-history" | "kept";
            };
        };
        IngestMessageInput: {
            text: string;
            /**
             * @default user
             * @enum {string}
             */
            speaker?: "user" | "assistant" | "tool" | "document";
            source?: string;
            messageId?: string;
            /** @example 2026-03-01 */
            at?: string;
            correlationId?: string;
        };
        AnswerWriteResult: {
            answerId: string;
            position: number;
            /** @description False when the command changed nothing (already open, not open, or a replayed command id). */
            changed: boolean;
        };
        Answer: {
            answerId: string;
            question: string;
            text: string;
            /** @description The memory versions it cited, as they were when it was recorded. */
            citations: {
                memoryId: string;
                value: string | null;
                text: string;
                speaker: string;
                /** @description The cited memory was erased since, and its words with it. */
                erased?: boolean;
            }[];
            /** @enum {string} */
            status: "answered" | "reopened" | "reviewed";
            /** @description Why the re-review saga reopened it, while it waits for review. */
            reopened: {
                answerId: string;
                memoryId: string;
                reason: string;
                cause: {
                    position: number;
                    event: string;
                };
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                at: string;
            } | null;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            recordedAt: string;
            position: number;
        };
        AnswerWithCitations: components["schemas"]["Answer"] & {
            citations?: {
                memoryId: string;
                value: string | null;
                text: string;
                speaker: string;
                /** @description The cited memory was erased since, and its words with it. */
                erased?: boolean;
                /** @description What became of the cited version; null when it is gone. */
                now: {
                    status: string;
                    supersededBy: string | null;
                } | null;
            }[];
        };
        Revision: {
            answer: string;
            /** @description How many times the model rewrote the answer. */
            revisions: number;
            verdicts: components["schemas"]["ClaimVerdict"][];
            /** @description Every claim of the final answer is supported. */
            settled: boolean;
        };
        ClaimVerdict: {
            /** @enum {string} */
            verdict: "supported" | "distorted" | "stale" | "fabricated";
            says: string;
            memory: {
                memoryId: string;
                value: string | null;
                text: string;
                speaker: string;
                status: string;
            } | null;
            /** @description For stale and distorted: what memory says now. */
            current: {
                memoryId: string;
                value: string | null;
                text: string;
            }[];
            reason: string;
        };
        Verification: {
            verdicts: components["schemas"]["ClaimVerdict"][];
        };
        Fact: {
            subject: string;
            relation: string;
            scope: {
                [key: string]: string;
            };
            cardinality: string | null;
            /** @description The value of a `one` key (null when none holds); null for a set, see `values`. */
            value: string | null;
            values: string[];
            versions: components["schemas"]["FactVersion"][];
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            validAt: string;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            knownAt: string;
        };
        FactVersion: {
            memoryId: string;
            value: string | null;
            text: string;
            type: string;
            speaker: string;
            source: string | null;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            validFrom: string;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            validTo: string | null;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            recordedAt: string;
        };
        Subject: {
            subject: string;
            facts: {
                memoryId: string;
                value: string | null;
                text: string;
                type: string;
                speaker: string;
                source: string | null;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                validFrom: string;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                validTo: string | null;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                recordedAt: string;
                relation: string | null;
                scope: {
                    [key: string]: string;
                };
            }[];
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            validAt: string;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            knownAt: string;
        };
        History: {
            subject: string;
            relation: string;
            scope: {
                [key: string]: string;
            };
            entries: {
                memoryId: string;
                value: string | null;
                text: string;
                type: string;
                /** @description The memory's status now, as GET /memories/{id} gives it: active, retired, quarantined or overruled. */
                status: string;
                /** @description How this row shows its version over its valid period while it was known: active, quarantined or overruled. */
                shownAs: string;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                validFrom: string;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                validTo: string | null;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                knownFrom: string | null;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                knownTo: string | null;
                openedBy: {
                    position: number;
                    event: string;
                    /** @description Who caused the event: the id of the API key of the request (never its secret), or the actor id a host application passed; null when nobody was named. */
                    actor: string | null;
                    /** @description Its batch label: what `rollback` takes to undo it. */
                    batch: string | null;
                    /** @description The causation id the write carried (what caused it: a message, a ticket); null when none. */
                    causation: string | null;
                };
                closedBy: {
                    position: number;
                    event: string;
                    /** @description Who caused the event: the id of the API key of the request (never its secret), or the actor id a host application passed; null when nobody was named. */
                    actor: string | null;
                    /** @description Its batch label: what `rollback` takes to undo it. */
                    batch: string | null;
                    /** @description The causation id the write carried (what caused it: a message, a ticket); null when none. */
                    causation: string | null;
                    /** @description The closing event's reason (a retraction by resolution names the message and the rule). */
                    reason: string | null;
                    /** @description The memory that took its place: the superseding or correcting version, or the statement that replaced it (a restatement, a change in other words). */
                    by: string | null;
                } | null;
            }[];
        };
        Belief: {
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            knownAt: string;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            validAt: string;
            subject: string | null;
            /** @description Every memory in the read paths at (validAt, knownAt), by subject, relation, scope and value. */
            memories: {
                memoryId: string;
                value: string | null;
                text: string;
                type: string;
                speaker: string;
                source: string | null;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                validFrom: string;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                validTo: string | null;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                recordedAt: string;
                /** @description `fact` (under a key) or `prose`. */
                kind: string;
                subject: string | null;
                relation: string | null;
                scope: {
                    [key: string]: string;
                };
            }[];
            /** @description True when there were more than `limit`. */
            truncated: boolean;
        };
        BeliefDiff: {
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            from: string;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            to: string;
            /**
             * Format: date-time
             * @example 2026-03-01T00:00:00.000Z
             */
            validAt: string | null;
            subject: string | null;
            changes: {
                kind: string;
                subject: string | null;
                relation: string | null;
                scope: {
                    [key: string]: string;
                };
                before: {
                    memoryId: string;
                    value: string | null;
                    text: string;
                    type: string;
                    speaker: string;
                    source: string | null;
                    /**
                     * Format: date-time
                     * @example 2026-03-01T00:00:00.000Z
                     */
                    validFrom: string;
                    /**
                     * Format: date-time
                     * @example 2026-03-01T00:00:00.000Z
                     */
                    validTo: string | null;
                    /**
                     * Format: date-time
                     * @example 2026-03-01T00:00:00.000Z
                     */
                    recordedAt: string;
                    /** @description `fact` (under a key) or `prose`. */
                    kind: string;
                    subject: string | null;
                    relation: string | null;
                    scope: {
                        [key: string]: string;
                    };
                }[];
                after: {
                    memoryId: string;
                    value: string | null;
                    text: string;
                    type: string;
                    speaker: string;
                    source: string | null;
                    /**
                     * Format: date-time
                     * @example 2026-03-01T00:00:00.000Z
                     */
                    validFrom: string;
                    /**
                     * Format: date-time
                     * @example 2026-03-01T00:00:00.000Z
                     */
                    validTo: string | null;
                    /**
                     * Format: date-time
                     * @example 2026-03-01T00:00:00.000Z
                     */
                    recordedAt: string;
                    /** @description `fact` (under a key) or `prose`. */
                    kind: string;
                    subject: string | null;
                    relation: string | null;
                    scope: {
                        [key: string]: string;
                    };
                }[];
                /** @description The events recorded on this key between the two moments; none when only valid time moved (a value that began or ended). */
                events: {
                    position: number;
                    type: string;
                    memoryId: string | null;
                    /**
                     * Format: date-time
                     * @example 2026-03-01T00:00:00.000Z
                     */
                    recordedAt: string;
                    /** @description Its batch label: what `rollback` takes to undo it. */
                    batch: string | null;
                    /** @description The id of the API key that wrote it (never its secret), or the actor id a host passed; null when nobody was named. */
                    actor: string | null;
                }[];
            }[];
            truncated: boolean;
        };
        Batch: {
            batch: string;
            events: {
                position: number;
                type: string;
                memoryId: string | null;
                /**
                 * Format: date-time
                 * @example 2026-03-01T00:00:00.000Z
                 */
                recordedAt: string;
                /** @description The id of the API key that wrote it, or the actor id a host passed; null when nobody was named. */
                actor: string | null;
                reason: string | null;
            }[];
            /** @description Each memory the events touched, as it stands now. */
            memories: components["schemas"]["Memory"][];
        };
        RollbackResult: {
            batch: string;
            position: number;
            items: {
                eventId: string;
                memoryId: string;
                change: string;
                /** @enum {string} */
                result: "compensated" | "overridden" | "already-rolled-back" | "not-compensable";
                detail: string;
            }[];
        };
        RollbackBody: {
            /** @description Retrying with the same id appends nothing twice. */
            commandId?: string;
        };
        ErasureResult: {
            /** @description Null when there was nothing to erase (nothing was recorded). */
            erasureId: string | null;
            /** @enum {string} */
            target: "memory" | "subject" | "all";
            /** @description The erasure record's log position (for a memory erased before: that erasure's). */
            position: number;
            erasedAt: string | null;
            /** @description The memories erased now. */
            memoryIds: string[];
            /** @description Events whose data was rewritten. */
            events: number;
            /** @description Message records emptied or trimmed. */
            messages: number;
            /** @description Answers that cited an erased memory: their words are gone, and they are reopened. */
            answers: string[];
            alreadyErased: boolean;
        };
        /** @description Exactly one of: memoryId (that memory, with every version of its fact), subject (every memory kept under it), all: true (the whole tenant). */
        ErasureBody: {
            memoryId?: string;
            subject?: string;
            all?: boolean;
        };
        ContextResult: {
            /** Format: uuid */
            traceId: string;
            /** @description The rendered block, framed as untrusted reference data; empty when nothing is relevant. */
            text: string;
            tokens: number;
            budgetTokens: number;
            items: components["schemas"]["ContextItem"][];
        };
        ContextItem: {
            memoryId: string;
            /** @enum {string} */
            channel: "profile" | "fresh" | "detail";
            text: string;
            type: string;
            speaker: string;
            source: string | null;
            /** @description When it was said (the day its heading shows), not when it was recorded. */
            saidAt: string;
            /** @description What the block says beside it: that it is unconfirmed (what it hung on changed, and what took its place), or that it contradicts a memory shown with it, both kept. */
            note?: string;
            scores: {
                cosine: number | null;
                textRank: number;
                trigram: number;
                fused: number | null;
            };
        };
        /** @description Every stage of one assembly: query hygiene, as-of, index lag, candidate pool with named scores, exclusions, fusion, diversity, channels, budget cut, survivors. */
        RecallTrace: {
            [key: string]: unknown;
        };
        Health: {
            /** @enum {string} */
            status: "ok" | "unavailable";
            store: {
                ok: boolean;
                /** @enum {string} */
                backend: "pglite" | "postgres";
            };
            migrations: {
                ok: boolean;
                pending: string[];
            };
            projections: {
                name: string;
                behindEvents: number;
                lagMs: number;
                checkpoint: {
                    commit: string;
                    prepare: number;
                };
            }[];
            /** @description Events the recall indexer has not embedded yet, and the age of the oldest; null without recall. */
            recallIndex: {
                behindEvents: number;
                lagMs: number;
                checkpoint: number;
            } | null;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type SchemaWriteResult = components['schemas']['WriteResult'];
export type SchemaRestatementDecision = components['schemas']['RestatementDecision'];
export type SchemaPartDecision = components['schemas']['PartDecision'];
export type SchemaError = components['schemas']['Error'];
export type SchemaAssertInput = components['schemas']['AssertInput'];
export type SchemaQuarantineBody = components['schemas']['QuarantineBody'];
export type SchemaRestoreBody = components['schemas']['RestoreBody'];
export type SchemaConfirmBody = components['schemas']['ConfirmBody'];
export type SchemaRetypeBody = components['schemas']['RetypeBody'];
export type SchemaRetractMemoryBody = components['schemas']['RetractMemoryBody'];
export type SchemaRetractInput = components['schemas']['RetractInput'];
export type SchemaMemory = components['schemas']['Memory'];
export type SchemaMemoryHistory = components['schemas']['MemoryHistory'];
export type SchemaIngestResult = components['schemas']['IngestResult'];
export type SchemaIngestedCandidate = components['schemas']['IngestedCandidate'];
export type SchemaResolvedMemory = components['schemas']['ResolvedMemory'];
export type SchemaIngestMessageInput = components['schemas']['IngestMessageInput'];
export type SchemaAnswerWriteResult = components['schemas']['AnswerWriteResult'];
export type SchemaAnswer = components['schemas']['Answer'];
export type SchemaAnswerWithCitations = components['schemas']['AnswerWithCitations'];
export type SchemaRevision = components['schemas']['Revision'];
export type SchemaClaimVerdict = components['schemas']['ClaimVerdict'];
export type SchemaVerification = components['schemas']['Verification'];
export type SchemaFact = components['schemas']['Fact'];
export type SchemaFactVersion = components['schemas']['FactVersion'];
export type SchemaSubject = components['schemas']['Subject'];
export type SchemaHistory = components['schemas']['History'];
export type SchemaBelief = components['schemas']['Belief'];
export type SchemaBeliefDiff = components['schemas']['BeliefDiff'];
export type SchemaBatch = components['schemas']['Batch'];
export type SchemaRollbackResult = components['schemas']['RollbackResult'];
export type SchemaRollbackBody = components['schemas']['RollbackBody'];
export type SchemaErasureResult = components['schemas']['ErasureResult'];
export type SchemaErasureBody = components['schemas']['ErasureBody'];
export type SchemaContextResult = components['schemas']['ContextResult'];
export type SchemaContextItem = components['schemas']['ContextItem'];
export type SchemaRecallTrace = components['schemas']['RecallTrace'];
export type SchemaHealth = components['schemas']['Health'];
export type $defs = Record<string, never>;
export interface operations {
    listMemories: {
        parameters: {
            query?: {
                /** @description At most this many, newest first (default 100). */
                limit?: number;
                /** @description Default `active`: the memories in the read paths now. Any other status: the memories that have it, whatever their valid time. */
                status?: "active" | "quarantined" | "retired" | "overruled";
                /** @description Never answer from a state older than this log position. */
                minPosition?: number | null;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Active memories. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Memory"][];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    assertMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssertInput"];
            };
        };
        responses: {
            /** @description Decided and appended (or a no-op: see outcome). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WriteResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    quarantineMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                memoryId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["QuarantineBody"];
            };
        };
        responses: {
            /** @description The lifecycle change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WriteResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_memory: no such memory in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description memory_erased: the memory was erased; `erased` says when and by which erasure. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    restoreMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                memoryId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RestoreBody"];
            };
        };
        responses: {
            /** @description The lifecycle change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WriteResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_memory: no such memory in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description memory_erased: the memory was erased; `erased` says when and by which erasure. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    confirmMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                memoryId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ConfirmBody"];
            };
        };
        responses: {
            /** @description The lifecycle change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WriteResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_memory: no such memory in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description memory_erased: the memory was erased; `erased` says when and by which erasure. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retypeMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                memoryId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetypeBody"];
            };
        };
        responses: {
            /** @description The lifecycle change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WriteResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_memory: no such memory in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description memory_erased: the memory was erased; `erased` says when and by which erasure. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retractMemory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                memoryId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RetractMemoryBody"];
            };
        };
        responses: {
            /** @description The lifecycle change. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WriteResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_memory: no such memory in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description memory_erased: the memory was erased; `erased` says when and by which erasure. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retractByKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RetractInput"];
            };
        };
        responses: {
            /** @description The retraction. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WriteResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_memory: no such memory in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description memory_erased: the memory was erased; `erased` says when and by which erasure. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemory: {
        parameters: {
            query?: {
                /** @description Never answer from a state older than this log position. */
                minPosition?: number | null;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                memoryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The memory. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Memory"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_memory: no such memory in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description memory_erased: the memory was erased; `erased` says when and by which erasure. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMemoryHistory: {
        parameters: {
            query?: {
                /** @description Never answer from a state older than this log position. */
                minPosition?: number | null;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                memoryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The history. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemoryHistory"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_memory: no such memory in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description memory_erased: the memory was erased; `erased` says when and by which erasure. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ingestMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IngestMessageInput"];
            };
        };
        responses: {
            /** @description The triage, every candidate with its verdict, gates and reason, and what was stored (a retried messageId: the first record, replayed). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                messageId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IngestResult"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_message: no message with this id was ingested in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listReopenedAnswers: {
        parameters: {
            query?: {
                minPosition?: number | null;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reopened answers, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer"][];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recordAnswer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    answerId?: string;
                    /** @default  */
                    question?: string;
                    text: string;
                    /** @default [] */
                    cites?: string[];
                    commandId?: string;
                };
            };
        };
        responses: {
            /** @description Recorded (or, for a replayed command id, what was recorded then). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnswerWriteResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_memory: no such memory in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description memory_erased: the memory was erased; `erased` says when and by which erasure. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAnswer: {
        parameters: {
            query?: {
                minPosition?: number | null;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                answerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The answer, each citation with what became of it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnswerWithCitations"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_answer */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reviewAnswer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                answerId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    note?: string;
                    commandId?: string;
                };
            };
        };
        responses: {
            /** @description Reviewed; `changed` is false when it was not open. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnswerWriteResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCitingAnswers: {
        parameters: {
            query?: {
                minPosition?: number | null;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                memoryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The answers, by id. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Answer"][];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    reviseAnswer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default  */
                    question?: string;
                    answer: string;
                };
            };
        };
        responses: {
            /** @description The final answer, how many rewrites it took, and its verdicts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Revision"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description llm_not_configured */
            501: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyClaims: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    claims: {
                        says: string;
                        speaker?: string;
                        cites?: string;
                    }[];
                    /** @example 2026-03-01 */
                    validAt?: string;
                };
            };
        };
        responses: {
            /** @description One verdict per claim, in order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Verification"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFact: {
        parameters: {
            query: {
                subject: string;
                relation: string;
                /** @description Valid time: what was true then. Default: now. */
                validAt?: string;
                /** @description Transaction time: as the ledger knew it then. Default: now. */
                knownAt?: string;
                /** @description Never answer from a state older than this log position. */
                minPosition?: number | null;
                /** @description Scope as a JSON object of strings. */
                scope?: string;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The value(s) holding at (validAt, knownAt). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Fact"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSubject: {
        parameters: {
            query?: {
                /** @description Valid time: what was true then. Default: now. */
                validAt?: string;
                /** @description Transaction time: as the ledger knew it then. Default: now. */
                knownAt?: string;
                /** @description Never answer from a state older than this log position. */
                minPosition?: number | null;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                subject: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The facts holding at (validAt, knownAt). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subject"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHistory: {
        parameters: {
            query: {
                subject: string;
                relation: string;
                /** @description Never answer from a state older than this log position. */
                minPosition?: number | null;
                /** @description Scope as a JSON object of strings. */
                scope?: string;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every version, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["History"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAudit: {
        parameters: {
            query?: {
                /** @description Transaction time: as the ledger knew it then. Default: now. */
                knownAt?: string;
                /** @description Valid time: what was true then. Default: knownAt. */
                validAt?: string;
                subject?: string;
                /** @description At most this many rows (changes, for the diff); default 1,000, at most 10,000. */
                limit?: number;
                /** @description Never answer from a state older than this log position. */
                minPosition?: number | null;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The memories in the read paths then. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Belief"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAuditDiff: {
        parameters: {
            query: {
                /** @description The earlier transaction time. */
                from: string;
                /** @description The later transaction time. */
                to: string;
                /** @description Valid time for both sides. Default: each side at its own moment (what the agent would have been told then). */
                validAt?: string;
                subject?: string;
                /** @description At most this many rows (changes, for the diff); default 1,000, at most 10,000. */
                limit?: number;
                /** @description Never answer from a state older than this log position. */
                minPosition?: number | null;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every key whose believed versions differ, both sides. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BeliefDiff"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBatch: {
        parameters: {
            query?: {
                /** @description Never answer from a state older than this log position. */
                minPosition?: number | null;
            };
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                batch: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_batch: no change in this tenant carries the label. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rollbackBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                batch: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RollbackBody"];
            };
        };
        responses: {
            /** @description What was compensated, item by item. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RollbackResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_batch: no change in this tenant carries the label. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description cardinality_conflict, illegal_lifecycle, version_conflict, slot_taken (a restore into a slot another memory holds: `heldBy`) or command_id_reused (the command id named another command). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    erase: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ErasureBody"];
            };
        };
        responses: {
            /** @description What was erased; the answers that cited it are reopened. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErasureResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_memory: no such memory in this tenant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    assembleContext: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    query: string;
                    /** @default 400 */
                    budgetTokens?: number;
                    /** @example 2026-03-01 */
                    validAt?: string;
                    /** @example 2026-03-01 */
                    knownAt?: string;
                    minPosition?: number;
                };
            };
        };
        responses: {
            /** @description The rendered block, its items and the id of its stored trace. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContextResult"];
                };
            };
            /** @description invalid_input: nothing was changed; `issues` names each field. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found: the key does not cover this tenant (the same answer whatever it holds), or the id names nothing in it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description projection_lag: the read model has not reached minPosition yet; retry. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTrace: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Every route is scoped to one tenant; nothing crosses. */
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stored trace. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecallTrace"];
                };
            };
            /** @description unauthenticated: no usable API key (none, unknown, wrong secret, revoked or expired); `WWW-Authenticate: Bearer`. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description forbidden: the key lacks the scope this route needs (read, write or admin). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unknown_trace: none in this tenant, or past retention. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description too_many_requests: the key is over its rate limit (FACTLEDGER_RATE_LIMIT a minute); retry later. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Not ready. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Prometheus text exposition format. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
        };
    };
    getOpenApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI 3 document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
        };
    };
}
