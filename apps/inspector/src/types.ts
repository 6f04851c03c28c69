/** The shapes of the API's replies the inspector reads (see /openapi.json). */
export interface Memory {
  memoryId: string;
  kind: string;
  subject: string | null;
  relation: string | null;
  scope: Record<string, string>;
  value: string | null;
  text: string;
  type: string;
  speaker: string;
  source: string | null;
  status: string;
  validFrom: string;
  validTo: string | null;
  recordedAt: string;
  supersededBy: string | null;
}

export interface Caused {
  position: number;
  event: string;
  actor: string | null;
}

export interface HistoryEntry {
  memoryId: string;
  value: string | null;
  text: string;
  type: string;
  status: string;
  validFrom: string;
  validTo: string | null;
  knownFrom: string | null;
  knownTo: string | null;
  openedBy: Caused;
  closedBy: (Caused & { reason: string | null; batch: string | null; by: string | null }) | null;
}

export interface Believed {
  memoryId: string;
  kind: string;
  subject: string | null;
  relation: string | null;
  scope: Record<string, string>;
  value: string | null;
  text: string;
  type: string;
  speaker: string;
  validFrom: string;
  validTo: string | null;
  recordedAt: string;
}

export interface Belief {
  knownAt: string;
  validAt: string;
  subject: string | null;
  memories: Believed[];
  truncated: boolean;
}

export interface BeliefDiff {
  from: string;
  to: string;
  validAt: string | null;
  changes: {
    kind: string;
    subject: string | null;
    relation: string | null;
    scope: Record<string, string>;
    before: Believed[];
    after: Believed[];
    events: { position: number; type: string; memoryId: string | null; recordedAt: string; batch: string | null; actor: string | null }[];
  }[];
  truncated: boolean;
}

export interface CitingAnswer {
  answerId: string;
  question: string;
  text: string;
  status: string;
}
