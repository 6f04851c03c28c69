/**
 * The judge of population triage (R19): a port, so the offline rule-based judge and a language
 * model at temperature 0 sit behind one contract. The judge sees a memory's words, who said them
 * and when — never its stored type or any label the old extractor put in the text, which would
 * tell it the answer (seed 000's first failed attempt: `[MILESTONE:love]` prefixes made noise look
 * real to the judge).
 */
export type JudgeAction = 'keep' | 'quarantine' | 'retype';

export interface JudgeInput {
  /** Opaque within one call: the judge's reply refers to items by it. */
  ref: string;
  text: string;
  speaker: string;
  /** When it was said (a message's time), not when the ledger recorded it. */
  saidAt: string;
}

export interface JudgeVerdict {
  ref: string;
  action: JudgeAction;
  /** For `retype`: the type it should have. */
  type?: string;
  /** What the judge saw it as: real, echo, question, roleplay, retype… (free text, for the report). */
  label: string;
  reason: string;
}

export interface JudgeTask {
  /** The type the population was stored as (what is being questioned). */
  type: string;
  /** What that type is for, in words. */
  description: string;
  /** Types a memory may be retyped to. */
  retypeTo: string[];
}

export interface MemoryJudge {
  readonly name: string;
  /** One verdict per item, any order; the caller checks that every ref is answered once. */
  judge(task: JudgeTask, items: JudgeInput[]): Promise<JudgeVerdict[]>;
}

/** Extraction labels that older pipelines wrote into the text: `[MILESTONE:love]`, `<milestone>`, `(type: milestone)`, `#milestone`. */
const LABEL_PREFIX = /^(?:\s*(?:\[[^\]\n]{1,40}\]|<[A-Za-z_:-]{1,40}>|\((?:type|label|tag)\s*[:=][^)\n]{1,40}\)|#[A-Za-z_][\w-]{0,30}))+\s*/i;

/** The text as the judge may see it: without the labels a pipeline prefixed to it. */
export function stripLabels(text: string, types: string[] = []): string {
  let t = text.replace(LABEL_PREFIX, '');
  for (const type of types) {
    t = t.replace(new RegExp(`^\\s*${type.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*[:|-]\\s*`, 'i'), '');
  }
  return t.trim();
}

export function sameVerdict(a: { action: JudgeAction; type?: string }, b: { action: JudgeAction; type?: string }): boolean {
  return a.action === b.action && (a.action !== 'retype' || a.type === b.type);
}
