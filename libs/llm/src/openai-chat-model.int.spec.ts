/**
 * Against a local HTTP server that speaks the OpenAI chat-completions protocol (no real model is
 * exercised anywhere in this project's tests).
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

describe('OpenAiChatModel against a local chat-completions server', () => {
  let server: Server;
  let base: string;
  const seen: { url: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
  let reply: (body: Record<string, unknown>) => { status: number; body: string; delayMs?: number } = () => ({ status: 500, body: '' });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = JSON.parse(await read(req)) as Record<string, unknown>;
      seen.push({ url: req.url ?? '', auth: req.headers.authorization, body });
      const r = reply(body);
      setTimeout(() => {
        res.writeHead(r.status, { 'content-type': 'application/json' });
        res.end(r.body);
      }, r.delayMs ?? 0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const ok = (content: string) => ({ status: 200, body: JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] }) });

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

  it('types every failure: an error status, a malformed body, a timeout, a closed port', async () => {
    const model = new OpenAiChatModel({ baseUrl: base, model: 'm', timeoutMs: 200 });
    reply = () => ({ status: 503, body: 'overloaded' });
    await expect(model.complete([{ role: 'user', content: 'x' }])).rejects.toBeInstanceOf(LlmServiceError);
    reply = () => ({ status: 200, body: '{"choices":[]}' });
    await expect(model.complete([{ role: 'user', content: 'x' }])).rejects.toBeInstanceOf(LlmBadResponseError);
    reply = () => ({ ...ok('late'), delayMs: 1000 });
    await expect(model.complete([{ role: 'user', content: 'x' }])).rejects.toBeInstanceOf(LlmTimeoutError);
    await expect(new OpenAiChatModel({ baseUrl: 'http://127.0.0.1:1', model: 'm' }).complete([{ role: 'user', content: 'x' }])).rejects.toBeInstanceOf(LlmUnreachableError);
  });
});
