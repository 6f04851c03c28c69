/** The reviser with a scripted model behind a local chat-completions server and the real verifier. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '@factledger/domain';
import { LlmBadResponseError, OpenAiChatModel } from '@factledger/llm';
import { createTestDatabase, type TestDatabase } from '@factledger/testing';
import { AnswerReviser } from './answer-revision';
import { type LedgerHandle, ledgerOn } from './create-ledger';

describe('AnswerReviser (scripted model, real verifier, PGlite)', () => {
  let database: TestDatabase;
  let handle: LedgerHandle;
  let server: Server;
  let script: string[] = [];
  let model: OpenAiChatModel;

  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    handle = ledgerOn(database, { clock: new ManualClock(new Date('2026-12-01T00:00:00Z')) });
    await handle.ledger.assert('t', { subject: 'user', relation: 'address', value: '12 Haeundae-ro, Busan' });
    await handle.ledger.assert('t', { subject: 'user', relation: 'address', value: '88 Dunsan-ro, Daejeon', validFrom: '2026-12-01T00:00:01Z' });
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const content = script.shift() ?? '{"claims":[]}';
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    model = new OpenAiChatModel({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, model: 'scripted' });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await database.close();
  });

  it('rewrites an answer whose claim is stale until its claims are supported', async () => {
    script = ['{"claims":[{"says":"12 Haeundae-ro, Busan","speaker":"user"}]}', "I'll send it to 88 Dunsan-ro, Daejeon.", '{"claims":[{"says":"88 Dunsan-ro, Daejeon","speaker":"user"}]}'];
    const r = await new AnswerReviser({ model, verifier: handle.verifier }).revise('t', { question: 'Where should it go?', answer: "I'll send it to 12 Haeundae-ro, Busan." });
    expect(r).toMatchObject({ answer: "I'll send it to 88 Dunsan-ro, Daejeon.", revisions: 1, settled: true });
    expect(r.verdicts.map((v) => v.verdict)).toEqual(['supported']);
  });

  it('stops at the revision cap and says the answer is not settled', async () => {
    const stale = '{"claims":[{"says":"12 Haeundae-ro, Busan","speaker":"user"}]}';
    script = [stale, 'still Busan', stale, 'still Busan', stale];
    const r = await new AnswerReviser({ model, verifier: handle.verifier }, 2).revise('t', { question: 'q', answer: 'Busan it is.' });
    expect(r).toMatchObject({ revisions: 2, settled: false });
    expect(r.verdicts.map((v) => v.verdict)).toEqual(['stale']);
    expect(script).toEqual([]);
  });

  it('refuses a model reply that is not the JSON it asked for', async () => {
    script = ['not json'];
    await expect(new AnswerReviser({ model, verifier: handle.verifier }).extractClaims('x')).rejects.toBeInstanceOf(LlmBadResponseError);
  });
});
