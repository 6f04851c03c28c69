/**
 * Against a local HTTP server that speaks the OpenAI chat-completions protocol (no real model is
 * exercised anywhere in this project's tests). Retries are the `openai` SDK's: the scripted
 * failures here check that they happen and that what is left after them is a typed error.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LlmBadResponseError, LlmServiceError, LlmTimeoutError, LlmUnreachableError } from './errors';
import { OpenAiChatModel } from './openai-chat-model';

const read = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let body = '';
    req.on('data', (c) => (body += String(c)));
    req.on('end', () => resolve(body));
  });

interface Reply {
  status: number;
  body: string;
  delayMs?: number;
  headers?: Record<string, string>;
}

describe('OpenAiChatModel against a local chat-completions server', () => {
  let server: Server;
  let base: string;
  const seen: { url: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
  let reply: (body: Record<string, unknown>) => Reply = () => ({ status: 500, body: '' });
  /** Replies to the next requests in turn, then `ok('done')`. */
  const inTurn =
    (...replies: Reply[]) =>
    () =>
      replies.shift() ?? ok('done');

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = JSON.parse(await read(req)) as Record<string, unknown>;
      seen.push({ url: req.url ?? '', auth: req.headers.authorization, body });
      const r = reply(body);
      const timer = setTimeout(() => {
        res.writeHead(r.status, { 'content-type': 'application/json', ...r.headers });
        res.end(r.body);
      }, r.delayMs ?? 0);
      // A reply the client gave up on is never sent: no timer outlives the test.
      res.on('close', () => clearTimeout(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections(); // the timed-out requests' sockets too
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  const ok = (content: unknown): Reply => ({ status: 200, body: JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }) });
  const ask = (model: OpenAiChatModel) => model.complete([{ role: 'user', content: 'x' }]);

  it('sends the messages, the model, temperature and JSON mode, and returns the content', async () => {
    reply = () => ok('{"claims":[]}');
    const model = new OpenAiChatModel({ baseUrl: `${base}/v1`, model: 'test-model', apiKey: 'k' });
    expect(await model.complete([{ role: 'user', content: 'hi' }], { json: true })).toBe('{"claims":[]}');
    expect(seen.at(-1)).toEqual({
      url: '/v1/chat/completions',
      auth: 'Bearer k',
      body: { model: 'test-model', messages: [{ role: 'user', content: 'hi' }], temperature: 0, response_format: { type: 'json_object' } },
    });
  });

  it('accepts a base URL without /v1, sends no Authorization without a key', async () => {
    reply = () => ok('hello');
    expect(await ask(new OpenAiChatModel({ baseUrl: `${base}/`, model: 'm' }))).toBe('hello');
    expect(seen).toEqual([{ url: '/v1/chat/completions', auth: undefined, body: { model: 'm', messages: [{ role: 'user', content: 'x' }], temperature: 0 } }]);
  });

  it('types every failure: an error status, a malformed body, a timeout, a closed port', async () => {
    // A timeout far above any answer here, except for the one case that waits for it: on a
    // loaded machine a prompt answer can take longer than the short timeout of that case.
    const model = new OpenAiChatModel({ baseUrl: base, model: 'm', timeoutMs: 10_000, maxRetries: 0 });
    const impatient = new OpenAiChatModel({ baseUrl: base, model: 'm', timeoutMs: 200, maxRetries: 0 });
    reply = () => ({ status: 503, body: 'overloaded' });
    const error = await ask(model).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmServiceError);
    expect(error).toMatchObject({ code: 'llm_service_error', status: 503, message: 'the language model service answered 503: overloaded' });
    reply = () => ({ status: 200, body: '{"choices":[]}' });
    await expect(ask(model)).rejects.toBeInstanceOf(LlmBadResponseError);
    reply = () => ({ ...ok('late'), delayMs: 1000 });
    await expect(ask(impatient)).rejects.toBeInstanceOf(LlmTimeoutError);
    const closed = await ask(new OpenAiChatModel({ baseUrl: 'http://127.0.0.1:1', model: 'm', maxRetries: 0 })).catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(LlmUnreachableError);
    expect(closed).toMatchObject({ code: 'llm_service_unreachable', url: 'http://127.0.0.1:1/v1/chat/completions' });
    expect((closed as Error).message).toMatch(/: bad port$/); // fetch refuses port 1 outright
  });

  it('rejects answers without a string content as bad responses', async () => {
    const model = new OpenAiChatModel({ baseUrl: base, model: 'm', maxRetries: 0 });
    for (const body of ['not json', '{}', JSON.stringify({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [] } }] })]) {
      reply = () => ({ status: 200, body });
      await expect(ask(model)).rejects.toMatchObject({ code: 'llm_bad_response' });
    }
    reply = () => ({ status: 200, body: 'plain text', headers: { 'content-type': 'text/plain' } });
    await expect(ask(model)).rejects.toThrow(/not JSON/);
  });

  it('retries a 503 (with backoff) and a 429 (honouring Retry-After), then returns the answer', async () => {
    reply = inTurn({ status: 503, body: 'busy' }, { status: 429, body: '{"error":{"message":"slow down"}}', headers: { 'retry-after': '0.05' } }, ok('at last'));
    const start = performance.now();
    expect(await ask(new OpenAiChatModel({ baseUrl: base, model: 'm', maxRetries: 2 }))).toBe('at last');
    expect(seen).toHaveLength(3);
    expect(performance.now() - start).toBeGreaterThanOrEqual(0.75 * 500 + 45); // the SDK's first backoff is 0.5 s less up to 25 % jitter
  });

  it('does not retry a client error, and keeps its body verbatim in the typed error', async () => {
    reply = () => ({ status: 404, body: '{"object":"error","message":"The model `m` does not exist."}' });
    const error = await ask(new OpenAiChatModel({ baseUrl: base, model: 'm', maxRetries: 2 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmServiceError);
    expect(error).toMatchObject({ status: 404 });
    expect((error as Error).message).toContain('"message":"The model `m` does not exist."');
    expect(seen).toHaveLength(1);
  });

  it('gives up after maxRetries with the last status', async () => {
    reply = inTurn({ status: 502, body: 'bad gateway', headers: { 'retry-after': '0' } }, { status: 500, body: 'still broken' });
    const error = await ask(new OpenAiChatModel({ baseUrl: base, model: 'm', maxRetries: 1 })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'llm_service_error', status: 500 });
    expect((error as Error).message).toMatch(/500: still broken/);
    expect(seen).toHaveLength(2);
  });

  it('retries a timed-out attempt, and types the timeout when every attempt times out', async () => {
    reply = () => ({ ...ok('late'), delayMs: 1500 });
    const error = await ask(new OpenAiChatModel({ baseUrl: base, model: 'm', timeoutMs: 150, maxRetries: 1 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmTimeoutError);
    expect(error).toMatchObject({ code: 'llm_timeout', timeoutMs: 150 });
    expect(seen).toHaveLength(2);
  });

  it('times out a body that stops halfway (the timeout covers the body, not only the headers)', async () => {
    const stalling = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"choices":[');
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    try {
      const model = new OpenAiChatModel({ baseUrl: `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`, model: 'm', timeoutMs: 150, maxRetries: 0 });
      await expect(ask(model)).rejects.toBeInstanceOf(LlmTimeoutError);
    } finally {
      stalling.closeAllConnections();
      await new Promise((resolve) => stalling.close(resolve));
    }
  });
});
