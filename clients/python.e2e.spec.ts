import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../apps/server/test/test-server';

/**
 * The Python client (clients/python) against the real server: its unittest suite, the example
 * included, run by python3 with the server's address and two tenants' keys. Skipped, and said so,
 * without python3.
 */
const hasPython = spawnSync('python3', ['--version']).status === 0;
const WHY = 'skipped: no python3 on PATH';
// Straight to stderr: jest shows no console output of a suite that is skipped whole.
if (!hasPython) process.stderr.write(`clients/python.e2e.spec.ts: the Python client tests are ${WHY}\n`);

// tests/test_client.py's tests, all of which must run: a skip would mean the server was not reached.
const PYTHON_TESTS = 13;

(hasPython ? describe : describe.skip)(`the Python client${hasPython ? '' : ` (${WHY})`}`, () => {
  let server: TestServer;
  const secrets: Record<string, string> = {};

  beforeAll(async () => {
    server = await startTestServer('pglite', {
      // Keys required, as in production (access.e2e.spec.ts), and no rate limit: the suite is quick.
      config: { auth: 'required', rateLimit: 0 },
      prepare: async (handle) => {
        secrets.acme = (await handle.keys.create({ tenant: 'acme', scopes: 'read,write,admin', name: 'python' })).secret;
        secrets.beta = (await handle.keys.create({ tenant: 'beta', scopes: 'read,write', name: 'python-other' })).secret;
      },
    });
  });
  afterAll(() => server?.close());

  it('passes its own suite against the server: round trips, as-of reads, a rollback, typed errors, every operation, the example', async () => {
    // Asynchronously (spawn, not spawnSync): the server answers from this very process.
    const run = await new Promise<{ status: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn('python3', ['-m', 'unittest', 'discover', '-s', join(__dirname, 'python', 'tests'), '-v'], {
        env: {
          ...process.env,
          FACTLEDGER_URL: server.base,
          FACTLEDGER_API_KEY: secrets.acme,
          FACTLEDGER_TENANT: 'acme',
          FACTLEDGER_OTHER_KEY: secrets.beta,
          FACTLEDGER_OTHER_TENANT: 'beta',
        },
        timeout: 110_000,
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stderr }));
    });
    // unittest reports on stderr: every test ran, none skipped, all passed.
    expect([run.status, run.stderr]).toEqual([0, expect.stringMatching(new RegExp(`\\nRan ${PYTHON_TESTS} tests? in [\\d.]+s\\n\\nOK\\s*$`))]);
    expect(run.stderr).not.toMatch(/skipped/);
  }, 120_000);
});
