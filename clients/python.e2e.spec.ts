import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../apps/server/src/test-server';

/**
 * The Python client (clients/python) against the real server: its unittest suite and its example,
 * run by python3 with the server's address and keys. Skipped, and said so, without python3.
 */
const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
const hasPython = python.status === 0;
if (!hasPython) console.log('the Python client tests are skipped: no python3 on PATH');

(hasPython ? describe : describe.skip)('the Python client', () => {
  let server: TestServer;
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      config: { auth: 'required', rateLimit: 0 },
      prepare: async (handle) => {
        secrets.acme = (await handle.keys.create({ tenant: 'acme', scopes: 'read,write,admin', name: 'python' })).secret;
        secrets.beta = (await handle.keys.create({ tenant: 'beta', scopes: 'read,write', name: 'python-other' })).secret;
      },
    });
  });
  afterAll(() => server?.close());

  it('passes its own suite against the server: round trips, as-of reads, a rollback, typed errors, every operation, the example', async () => {
    // Asynchronously: the server answers from this very process.
    const run = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn('python3', ['-m', 'unittest', 'discover', '-s', join(__dirname, 'python', 'tests'), '-v'], {
        env: { ...process.env, FACTLEDGER_URL: server.base, FACTLEDGER_API_KEY: secrets.acme, FACTLEDGER_TENANT: 'acme', FACTLEDGER_OTHER_KEY: secrets.beta },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    // unittest reports on stderr: every test ran, none skipped, all passed.
    expect([run.status, run.stderr]).toEqual([0, expect.stringMatching(/Ran 6 tests[\s\S]*\nOK\s*$/)]);
    expect(run.stderr).not.toMatch(/skipped/);
  }, 150_000);
});
