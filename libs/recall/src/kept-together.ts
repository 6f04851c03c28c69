/** Which shown memories state one frame with two values, and why both stayed (a trace's `keptTogether`). */
import { alignFrames, frameStatement, judgeFrame, languageOf } from '@factledger/domain';

/**
 * Pairs of shown memories that state one frame with two values and were both kept (a set, an
 * event, other holders' guards, or unsure): the same pure judgement as the write path, so the
 * trace says why both are in the context.
 */
export function keptTogether(items: readonly { memoryId?: string; text: string }[]): { memoryIds: [string, string]; frame: string; holds: string; rule: string }[] {
  const framed = items.map((i) => ({ id: i.memoryId ?? '', f: frameStatement(i.text, languageOf(i.text)) })).filter((x) => x.id && x.f && x.f.predicate >= 0);
  const out: { memoryIds: [string, string]; frame: string; holds: string; rule: string }[] = [];
  for (let j = 1; j < framed.length; j++) {
    for (let i = 0; i < j; i++) {
      const a = alignFrames(framed[i]!.f!, framed[j]!.f!);
      if (!a) continue;
      const judged = judgeFrame(framed[i]!.f!, framed[j]!.f!, a);
      out.push({ memoryIds: [framed[i]!.id, framed[j]!.id], frame: a.frame, holds: judged.holds, rule: judged.rule });
    }
  }
  return out;
}
