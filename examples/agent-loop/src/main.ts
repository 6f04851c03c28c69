/**
 * An agent's turn with factledger as its memory, through the typed client: the user's message
 * goes in, the context for the next prompt comes out, the answer is recorded with what it cited;
 * later the user changes the value, and the answer is reopened for review. The server is the
 * packed `factledger` package, started here on an embedded PGlite folder with one API key.
 *
 *   npm install && npm run build && npm start
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createFactledgerClient, type FactledgerClient, NotFoundError, ok, UnauthenticatedError } from '@factledger/client';

const tenant = 'acme';
let failed = 0;
function check(ok: boolean, what: string): void {
  console.log(`${ok ? 'ok' : 'FAILED'}: ${what}`);
  if (!ok) failed++;
}

/** The packed server: its CLI makes the key, its server entry serves. */
const pkg = dirname(require.resolve('factledger/package.json'));
const dataDir = mkdtempSync(join(tmpdir(), 'factledger-agent-loop-'));
const env = { ...process.env, FACTLEDGER_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info' };

function makeKey(): string {
  const out = execFileSync(process.execPath, [join(pkg, 'bin', 'factledger.js'), 'keys', 'create', '--tenant', tenant, '--scopes', 'read,write', '--name', 'agent'], { env, encoding: 'utf8' });
  return out.trim().split('\n').pop()!.trim();
}

async function startServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(pkg, 'bin', 'factledger-server.js')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /"url":"(http:[^"]+)"/.exec(seen);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before it listened:\n${seen}`)));
  });
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function turn(api: FactledgerClient): Promise<void> {
  const path = { tenant };
  // Messages in: the user states a value.
  const said = await ok(api.POST('/v1/tenants/{tenant}/messages', { params: { path }, body: { text: 'Our staging database runs on db-07.internal.', speaker: 'user' } }));
  check(said.stored.length === 1, `the message stored one memory (${said.stored.length})`);

  // Context out: what the next prompt is given.
  const question = 'Which host does the staging database run on?';
  const context = await ok(api.POST('/v1/tenants/{tenant}/context', { params: { path }, body: { query: question, minPosition: said.position } }));
  check(context.text.includes('db-07.internal'), 'the context holds the value');
  const cited = context.items.find((i) => i.text.includes('db-07'));
  check(cited !== undefined, 'the context names the memory it came from');

  // The answer, recorded with what it cited.
  const answer = await ok(api.POST('/v1/tenants/{tenant}/answers', { params: { path }, body: { question, text: 'It runs on db-07.internal.', cites: [cited!.memoryId] } }));

  // Later the value changes: the old statement is replaced, and the answer that cited it is reopened.
  const changed = await ok(api.POST('/v1/tenants/{tenant}/messages', { params: { path }, body: { text: 'Our staging database runs on db-09.internal now.', speaker: 'user' } }));
  let reopened = false;
  for (let i = 0; i < 100 && !reopened; i++) {
    const waiting = await ok(api.GET('/v1/tenants/{tenant}/answers', { params: { path, query: { minPosition: changed.position } } }));
    reopened = waiting.some((a) => a.answerId === answer.answerId);
    if (!reopened) await new Promise((r) => setTimeout(r, 100));
  }
  check(reopened, 'the answer that cited the old value is reopened for review');
  const next = await ok(api.POST('/v1/tenants/{tenant}/context', { params: { path }, body: { query: question, minPosition: changed.position } }));
  check(next.text.includes('db-09.internal') && !next.text.includes('db-07.internal'), 'the next context holds the new value only');

  // Typed errors.
  try {
    await ok(api.GET('/v1/tenants/{tenant}/memories/{memoryId}', { params: { path: { tenant, memoryId: 'no-such-memory' } } }));
    check(false, 'an unknown memory is an error');
  } catch (error) {
    check(error instanceof NotFoundError && error.code === 'unknown_memory', `an unknown memory is a NotFoundError (${(error as Error).name})`);
  }
}

async function main(): Promise<void> {
  const key = makeKey();
  const server = await startServer();
  try {
    await turn(createFactledgerClient({ baseUrl: server.url, apiKey: key }));
    try {
      await ok(createFactledgerClient({ baseUrl: server.url, apiKey: 'not-a-key' }).GET('/v1/tenants/{tenant}/answers', { params: { path: { tenant } } }));
      check(false, 'a wrong key is refused');
    } catch (error) {
      check(error instanceof UnauthenticatedError, `a wrong key is an UnauthenticatedError (${(error as Error).name})`);
    }
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) {
    console.error(`${failed} check(s) failed`);
    process.exit(1);
  }
  console.log('agent loop: all checks passed');
}

void main();
