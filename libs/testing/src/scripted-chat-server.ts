/**
 * A local HTTP server that speaks the OpenAI chat-completions protocol with scripted replies, for
 * tests of the model-backed parts (no model runs here): every request body it received, and a
 * model (OpenAiChatModel) pointed at it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAiChatModel } from '@factledger/llm';

export interface ScriptedChatRequest {
  temperature: number;
  response_format?: unknown;
  messages: { role: string; content: string }[];
}

export interface ScriptedChatServer {
  model: OpenAiChatModel;
  /** Every request body received, oldest first. */
  sent: ScriptedChatRequest[];
  close(): Promise<void>;
}

/** Starts the server on a free loopback port; `reply` gives the assistant's content for each request. */
export async function startScriptedChatServer(reply: (request: ScriptedChatRequest) => string): Promise<ScriptedChatServer> {
  const sent: ScriptedChatRequest[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const request = JSON.parse(body) as ScriptedChatRequest;
      sent.push(request);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: reply(request) } }] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const model = new OpenAiChatModel({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, model: 'scripted' });
  return { model, sent, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
