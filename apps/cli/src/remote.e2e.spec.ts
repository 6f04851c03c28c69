/**
 * The command line against a running server (`--url`, `--key`): a real server on a native
 * PostgreSQL test database, the real command line in child processes (test/support/run-cli.js),
 * each command once through the server and once on the same database directly, and the two
 * outputs compared. (PGlite's data folder is held by the server that opened it, which is why the
 * remote mode exists; here the local run needs a database both can open.)
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../../server/test/test-server';

const runCli = join(__dirname, '..', '..', '..', 'test', 'support', 'run-cli.js');
const native = Boolean(process.env.FL_PG_ADMIN_URL);
if (!native) console.log('factledger --url: skipped, the local side of the comparison needs native PostgreSQL (FL_PG_ADMIN_URL)');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

(native ? describe : describe.skip)('factledger --url: the commands with an HTTP route, through a running server', () => {
  let server: TestServer;
  let key = '';
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !['DATABASE_URL', 'FACTLEDGER_URL', 'FACTLEDGER_KEY'].includes(k)));

  // Asynchronous: the server answers from this process while the command runs.
  const cli = (args: string[], extraEnv: Record<string, string> = {}): Promise<Run> =>
    new Promise((resolve) => {
      execFile(process.execPath, [runCli, ...args], { env: { ...env, ...extraEnv }, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const remote = (...args: string[]) => cli([...args, '--url', server.base, '--key', key]);
  const local = (...args: string[]) => cli(['--database-url', server.database.url!, ...args]);
  /** The same command both ways: the outputs, which must be the same. */
  const both = async (...args: string[]) => {
    const [there, here] = await Promise.all([remote(...args), local(...args)]);
    expect(there).toMatchObject({ code: 0, stderr: '' });
    expect(here).toMatchObject({ code: 0, stderr: '' });
    return { there: there.stdout, here: here.stdout };
  };

  beforeAll(async () => {
    server = await startTestServer('postgres', {
      startRecall: true,
      prepare: async (handle) => {
        key = (await handle.keys.create({ tenant: 'acme', scopes: 'read,write,admin' })).secret;
      },
    });
    for (const value of ['8080', '8000']) {
      const written = await fetch(`${server.base}/v1/tenants/acme/memories`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: 'billing-api', relation: 'port', value }),
      });
      expect(written.status).toBe(201);
    }
  }, 120_000);
  afterAll(() => server?.close());

  it('reads the same: as-of (a key and a subject), history, answers, verify', async () => {
    // Both at one moment: an as-of read without times says which "now" it read at.
    const at = ['--valid-at', new Date().toISOString(), '--known-at', new Date().toISOString()];
    for (const args of [
      ['as-of', '--tenant', 'acme', '--subject', 'billing-api', '--relation', 'port', ...at],
      ['as-of', '--tenant', 'acme', '--subject', 'billing-api', ...at],
      ['history', '--tenant', 'acme', '--subject', 'billing-api', '--relation', 'port'],
      ['answers', '--tenant', 'acme'],
      ['verify', '--tenant', 'acme', '--claims', '[{"says":"the billing-api port is 8080","speaker":"user"}]'],
    ]) {
      const { there, here } = await both(...args);
      expect(there).toBe(here);
    }
    expect(JSON.parse((await remote('as-of', '--tenant', 'acme', '--subject', 'billing-api', '--relation', 'port')).stdout)).toMatchObject({ value: '8000' });
  }, 120_000);

  it('ingests a message through the server, and both read back the same record; context and its trace', async () => {
    const ingested = await remote('ingest', 'I moved to Daejeon last week.', '--tenant', 'acme', '--message-id', 'msg-1');
    expect(ingested).toMatchObject({ code: 0, stderr: '' });
    expect(ingested.stdout).toMatch(/^message msg-1 at position \d+\ntriage: inform/);
    // The same message again, locally: the first record, replayed, printed the same way.
    const again = await local('ingest', 'I moved to Daejeon last week.', '--tenant', 'acme', '--message-id', 'msg-1');
    expect(again.stdout.replace(' (already ingested: the first record, nothing appended)', '')).toBe(ingested.stdout);
    const { there, here } = await both('message', 'msg-1', '--tenant', 'acme');
    expect(there).toBe(here);

    const context = JSON.parse((await remote('context', 'Which port does the billing-api use?', '--tenant', 'acme')).stdout) as { text: string; traceId: string };
    expect(context.text).toContain('8000');
    const trace = await both('trace', context.traceId, '--tenant', 'acme');
    expect(trace.there).toBe(trace.here);
  }, 120_000);

  it('says what went wrong the same way, and names a wrong key or an unreachable server', async () => {
    const [there, here] = await Promise.all([remote('message', 'no-such', '--tenant', 'acme'), local('message', 'no-such', '--tenant', 'acme')]);
    expect(there).toMatchObject({ code: 1, stdout: '' });
    expect(there.stderr).toBe(here.stderr);
    expect(there.stderr).toMatch(/^unknown_message: /);
    expect((await cli(['as-of', '--subject', 'x', '--tenant', 'acme', '--url', server.base, '--key', 'flk_wrong'])).stderr).toMatch(/^unauthenticated: /);
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    // A command without a route does not fall back to a local database when given --url.
    expect((await remote('keys', 'list')).stderr).toMatch(/^no_http_route: this command has no HTTP route: run it without --url/);
    const unreachable = await cli(['as-of', '--subject', 'x'], { FACTLEDGER_URL: `http://127.0.0.1:${closed}`, FACTLEDGER_KEY: key });
    expect(unreachable.stderr).toBe(`server_unreachable: cannot reach the server at http://127.0.0.1:${closed}: ECONNREFUSED\n`);
  }, 120_000);

  it('erases through the server with an admin key, printing what the local command prints', async () => {
    const erased = await cli(['erase', '--tenant', 'acme', '--subject', 'billing-api'], { FACTLEDGER_URL: server.base, FACTLEDGER_KEY: key });
    expect(erased).toMatchObject({ code: 0, stderr: '' });
    expect(erased.stdout).toMatch(/^erased \d+ memories; \d+ events rewritten, 0 message records, 0 answers reopened; recorded at position \d+\n\S+\n$/);
    expect((await local('erase', '--tenant', 'acme', '--subject', 'billing-api')).stdout).toBe('nothing to erase\n\n');
  }, 120_000);
});
