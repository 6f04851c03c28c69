/**
 * The language-model judge against a local server that speaks the OpenAI chat-completions
 * protocol (the one gap: no model runs here, so a scripted one answers); checks what the judge
 * is sent (temperature 0, JSON mode, no stored labels) and how its replies are validated.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '@factledger/domain';
import { LlmBadResponseError, OpenAiChatModel } from '@factledger/llm';
import { createTestDatabase, type TestDatabase } from '@factledger/testing';
import { type LedgerHandle, ledgerOn } from '../create-ledger';
import { AdmissionPolicies } from '../ingest/admission-policy';
import { LlmJudge } from './llm-judge';
import { PopulationTriage } from './population-triage';

interface Sent {
  temperature: number;
  response_format?: { type: string };
  messages: { role: string; content: string }[];
}

describe('LlmJudge (scripted chat-completions server, PGlite)', () => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  let server: Server;
  let model: OpenAiChatModel;
  const sent: Sent[] = [];
  /** The scripted model: a verdict per item from the words it was shown. */
  let answer = (items: { ref: string; text: string }[]): unknown => ({
    verdicts: items.map((i) => ({
      ref: i.ref,
      verdict: /engaged|job offer/.test(i.text) ? 'keep' : /moved to/.test(i.text) ? 'retype' : 'quarantine',
      ...(/moved to/.test(i.text) ? { type: 'profile' } : {}),
      label: 'x',
      reason: 'scripted',
    })),
  });
  const clock = new ManualClock(new Date('2026-12-01T00:00:00Z'));

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    handle = ledgerOn(database, { clock });
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const request = JSON.parse(body) as Sent;
        sent.push(request);
        const items = (JSON.parse(request.messages[1]!.content) as { items: { ref: string; text: string }[] }).items;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(answer(items)) } }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    model = new OpenAiChatModel({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, model: 'scripted' });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await database.close();
  });

  it('judges a population in batches at temperature 0, in JSON mode, without the stored labels', async () => {
    const texts = ['[MILESTONE:love] We got engaged!', 'haha ok', 'I moved to Busan.', 'I got the job offer today', '*smiles*'];
    await handle.ledger.writeMany(
      't',
      texts.map((text) => ({ assert: { text, type: 'milestone' } })),
    );
    const policies = new AdmissionPolicies();
    const triage = new PopulationTriage({ ledger: handle.ledger, reader: handle.reader, store: handle.store, clock, policyFor: (t) => policies.for(t) });
    const frozen = await triage.judge(
      't',
      {
        population: { type: 'milestone' },
        controls: [
          { text: 'We got engaged in May', expect: 'keep' },
          { text: 'lol', expect: 'quarantine' },
        ],
      },
      new LlmJudge(model, 2),
    );
    expect(frozen.judge).toBe('llm:scripted');
    expect(frozen.counts).toEqual({ total: 5, keep: 2, quarantine: 2, retype: { profile: 1 } });
    expect(sent.length).toBe(1 + 3); // controls, then 5 items in batches of 2
    for (const request of sent) {
      expect(request.temperature).toBe(0);
      expect(request.response_format).toEqual({ type: 'json_object' });
      expect(request.messages[1]!.content).not.toMatch(/MILESTONE/);
      expect(request.messages[0]!.content).toContain('"milestone"');
    }
  });

  it('refuses a reply that skips an item or invents a type', async () => {
    const triage = new LlmJudge(model);
    answer = (items) => ({ verdicts: items.slice(1).map((i) => ({ ref: i.ref, verdict: 'keep' })) });
    const task = { type: 'milestone', description: 'relationship milestone', retypeTo: ['fact'] };
    await expect(
      triage.judge(task, [
        { ref: 'a', text: 'x', speaker: 'user', saidAt: '' },
        { ref: 'b', text: 'y', speaker: 'user', saidAt: '' },
      ]),
    ).rejects.toBeInstanceOf(LlmBadResponseError);
    answer = (items) => ({ verdicts: items.map((i) => ({ ref: i.ref, verdict: 'retype', type: 'gossip' })) });
    await expect(triage.judge(task, [{ ref: 'a', text: 'x', speaker: 'user', saidAt: '' }])).rejects.toThrow(/gossip/);
    answer = () => 'not an object';
    await expect(triage.judge(task, [{ ref: 'a', text: 'x', speaker: 'user', saidAt: '' }])).rejects.toBeInstanceOf(LlmBadResponseError);
  });
});
