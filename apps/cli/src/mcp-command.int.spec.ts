/**
 * `factledger mcp` over stdio, spawned as a client starts it (the real command line from the
 * sources, embedded PGlite in a fresh folder) and driven by the SDK's own Client: the tools are
 * listed, a remember–supersede–recall round trip leaves the old value out, as-of recall shows it,
 * forget and restore, verify on a stale claim, malformed arguments on every tool are tool errors,
 * and stdout carries nothing but the protocol.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const TOOLS = ['confirm', 'correct', 'explain', 'fact', 'forget', 'history', 'recall', 'record_answer', 'remember', 'restore', 'verify'];

describe('factledger mcp over stdio', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fl-mcp-'));
  let client: Client;
  let transport: StdioClientTransport;
  let stderr = '';
  const protocolErrors: unknown[] = [];

  beforeAll(async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && k !== 'DATABASE_URL')) as Record<string, string>;
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(__dirname, '..', '..', '..', 'test', 'support', 'run-cli.js'), 'mcp', '--tenant', 'desk'],
      env: { ...env, FACTLEDGER_DATA_DIR: join(dir, 'data'), FACTLEDGER_INDEX_INTERVAL_MS: '50' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d) => (stderr += String(d)));
    client = new Client({ name: 'factledger-stdio-test', version: '1.0.0' });
    await client.connect(transport);
    // Anything on stdout that is not a JSON-RPC message would arrive here.
    transport.onerror = (error) => protocolErrors.push(error);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as { isError?: boolean; content: { text: string }[]; structuredContent?: any };
  const text = (r: { content: { text: string }[] }) => r.content.map((c) => c.text).join('\n');

  it('lists the tools and keeps the old value out of recall once superseded', async () => {
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const first = await call('remember', { subject: 'build server', relation: 'runs on', value: 'Ubuntu 22.04', validFrom: '2026-01-10' });
    expect(first.structuredContent).toMatchObject({ outcome: 'created' });
    expect((await call('remember', { subject: 'build server', relation: 'runs on', value: 'Debian 13', validFrom: '2026-03-01' })).structuredContent).toMatchObject({ outcome: 'superseded' });
    const now = await call('recall', { query: 'What does the build server run on?' });
    expect(text(now)).toContain('Debian 13');
    expect(text(now)).not.toContain('Ubuntu');
    const then = await call('recall', { query: 'What does the build server run on?', validAt: '2026-02-01' });
    expect(text(then)).toContain('Ubuntu 22.04');
    expect(text(then)).not.toContain('Debian');
    const stale = await call('verify', { claims: [{ says: 'The build server runs on Ubuntu 22.04.', cites: first.structuredContent.memoryId }] });
    expect(stale.structuredContent.verdicts[0]).toMatchObject({ verdict: 'stale' });
    expect((await call('forget', { memoryId: first.structuredContent.memoryId, reason: 'test' })).isError).toBeFalsy();
    expect((await call('restore', { memoryId: first.structuredContent.memoryId })).isError).toBeFalsy();
  }, 120_000);

  it("plays docs/mcp.md's session: remember, a message that supersedes it, recall, verify", async () => {
    const m1 = await call('remember', { subject: 'user', relation: 'lives in', value: 'Lisbon', validFrom: '2025-03-01' });
    expect(m1.structuredContent).toMatchObject({ outcome: 'created' });
    const m2 = await call('remember', { text: 'I moved to Porto last week.' });
    expect(m2.structuredContent).toMatchObject({ kind: 'inform', candidates: [expect.objectContaining({ outcome: 'superseded' })] });
    const block = text(await call('recall', { query: 'Where do I live?' }));
    expect(block).toContain('Porto');
    expect(block).not.toContain('Lisbon');
    const verdict = await call('verify', { claims: [{ says: 'I live in Lisbon.', cites: m1.structuredContent.memoryId }] });
    expect(verdict.structuredContent.verdicts[0]).toMatchObject({ verdict: 'stale' });
  }, 60_000);

  it('answers malformed arguments with tool errors, and stdout carries only the protocol', async () => {
    for (const [name, args] of [
      ['remember', {}],
      ['correct', { subject: 'x' }],
      ['recall', { query: '' }],
      ['fact', { subject: 'x' }],
      ['history', {}],
      ['forget', { memoryId: 'nope' }],
      ['restore', {}],
      ['record_answer', { text: 'x', cites: ['nope'] }],
      ['verify', { claims: [] }],
      ['explain', { traceId: 'nope' }],
    ] as const) {
      const r = await call(name, args);
      if (!r.isError) throw new Error(`${name} ${JSON.stringify(args)} was not refused: ${text(r)}`);
    }
    expect((await call('fact', { subject: 'build server', relation: 'runs on' })).structuredContent).toMatchObject({ value: 'Debian 13' });
    expect(protocolErrors).toEqual([]);
    expect(stderr).toContain('serving tenant desk over stdio');
  }, 60_000);
});
