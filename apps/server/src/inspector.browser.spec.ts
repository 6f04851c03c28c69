/**
 * The web inspector end to end in real headless Chromium (Debian's `chromium`, driven by
 * playwright-core; FL_CHROMIUM names another binary): the server with API keys required, the
 * inspector as `npm run build` makes it, served at /inspector. Screenshots at two window sizes go
 * to dist/screenshots.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { testBackends } from '@factledger/testing';
import { inspectorDir } from './inspector';
import { startTestServer, type TestServer } from '../test/test-server';

const CHROMIUM = process.env.FL_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const SHOTS = join(__dirname, '..', '..', '..', 'dist', 'screenshots');

/** The inspector as `npm run build` makes it (built here when this checkout was not built yet). */
function ensureBuilt(): void {
  if (inspectorDir()) return;
  const root = join(__dirname, '..', '..', '..');
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(root, 'apps/inspector/vite.config.mjs')], { cwd: root, stdio: 'inherit' });
}

const haveChromium = existsSync(CHROMIUM);
// Without a browser these tests cannot run: they are reported as skipped (never as passed); .ci/run installs it.
const describeWithBrowser = haveChromium ? describe : describe.skip;
if (!haveChromium) console.warn(`inspector browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set FL_CHROMIUM)`);

describeWithBrowser.each(testBackends())('web inspector on %s', (backend) => {
  let server: TestServer;
  let browser: Browser;
  const keys: Record<string, string> = {};
  const ids: Record<string, string> = {};
  let before = '';
  let after = '';
  let beforeCorrection = '';

  beforeAll(async () => {
    ensureBuilt();
    server = await startTestServer(backend, {
      config: { auth: 'required', rateLimit: 0 },
      startRecall: true,
      prepare: async (handle) => {
        keys.acme = (await handle.keys.create({ tenant: 'acme', scopes: 'read,write', name: 'acme ops' })).secret;
        keys.beta = (await handle.keys.create({ tenant: 'beta', scopes: 'read', name: 'beta reader' })).secret;
        keys.admin = (await handle.keys.create({ tenant: 'acme', scopes: 'read,write,admin', name: 'acme admin' })).secret;
        keys.crew = (await handle.keys.create({ tenant: 'crew', scopes: 'read', name: 'crew reader' })).secret;
      },
    });
    const { ledger } = server.handle;
    ids.berlin = (await ledger.assert('acme', { subject: 'Ada', relation: 'lives in', value: 'Berlin', source: 'hr-export' })).memoryId;
    ids.note = (await ledger.assert('acme', { text: 'The quarterly review moved to the big room.', speaker: 'document' })).memoryId;
    await new Promise((r) => setTimeout(r, 20));
    before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    const lisbon = await ledger.assert('acme', { subject: 'Ada', relation: 'lives in', value: 'Lisbon', batch: 'move-2026', causationId: 'hr-ticket-7' });
    ids.lisbon = lisbon.memoryId;
    await new Promise((r) => setTimeout(r, 20));
    after = new Date().toISOString();
    // A key with an update, a late-arriving older document and a correction, each learned apart.
    const pause = () => new Promise((r) => setTimeout(r, 20));
    await ledger.assert('acme', { subject: 'payments', relation: 'port', value: '8000', validFrom: '2026-01-05' });
    await pause();
    await ledger.assert('acme', { subject: 'payments', relation: 'port', value: '8080', validFrom: '2026-02-01' });
    await pause();
    beforeCorrection = new Date().toISOString();
    await pause();
    await ledger.assert('acme', { subject: 'payments', relation: 'port', value: '7000', validFrom: '2025-10-01', source: 'old-runbook.md' });
    await pause();
    const corrected = await ledger.assert('acme', { subject: 'payments', relation: 'port', value: '8443', mode: 'correction' });
    await server.handle.runner.awaitPosition(corrected.position, 'facts');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
    mkdirSync(SHOTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function fresh(width = 1280, height = 800): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height } });
    return context.newPage();
  }

  async function signIn(page: Page, key: string, tenant?: string): Promise<void> {
    if (tenant) await page.getByLabel('Tenant').fill(tenant);
    await page.getByLabel('API key').fill(key);
    await page.getByLabel('API key').press('Enter');
  }

  it("signs in with an API key (Enter) and lists the tenant's memories, with search and filters", async () => {
    const page = await fresh();
    await page.goto(`${server.base}/inspector`);
    await signIn(page, keys.acme!, 'acme');
    await page.waitForURL('**/inspector/tenants/acme/memories');
    await page.getByRole('link', { name: 'Ada · lives in · Lisbon' }).waitFor();
    expect(await page.getByRole('link', { name: 'The quarterly review moved to the big room.' }).count()).toBe(1);
    // The superseded Berlin is not in the read paths.
    expect(await page.getByText('Ada · lives in · Berlin').count()).toBe(0);
    await page.getByRole('searchbox').fill('quarterly');
    await page.getByText(/^1 of 3 memories/).waitFor();
    expect(page.url()).toContain('q=quarterly');
    await page.getByLabel('Speaker').selectOption('document');
    expect(await page.getByRole('link', { name: 'The quarterly review moved to the big room.' }).count()).toBe(1);
    // Out of the read paths, by status: the superseded Berlin is retired, kept on record.
    await page.getByRole('searchbox').fill('');
    await page.getByLabel('Speaker').selectOption('');
    await page.getByLabel('Status').selectOption('retired');
    await page.getByRole('link', { name: 'Ada · lives in · Berlin' }).waitFor();
    expect(page.url()).toContain('status=retired');
    expect(await page.getByText('Ada · lives in · Lisbon').count()).toBe(0);
    await page.getByLabel('Status').selectOption('active');
    await page.getByRole('link', { name: 'Ada · lives in · Lisbon' }).waitFor();
    await page.screenshot({ path: join(SHOTS, `memories-${backend}-wide.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, `memories-${backend}-narrow.png`), fullPage: true });
  });

  it('refuses a key the server does not accept, and stays on the sign-in form', async () => {
    const page = await fresh();
    await page.goto(`${server.base}/inspector`);
    await signIn(page, 'flk_notakey0000_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', 'acme');
    await page.getByText('The server did not accept this API key.').waitFor();
    expect(page.url()).toMatch(/\/inspector\/?$/);
  });

  it('opens a deep link cold: asks for the key first, then the memory it names, with its history', async () => {
    const page = await fresh();
    await page.goto(`${server.base}/inspector/tenants/acme/memories/${ids.berlin}`);
    // The tenant is in the link: only the key is asked for.
    expect(await page.getByLabel('Tenant').count()).toBe(0);
    await signIn(page, keys.acme!);
    await page.getByRole('heading', { name: 'Ada · lives in · Berlin' }).waitFor();
    expect(page.url()).toBe(`${server.base}/inspector/tenants/acme/memories/${ids.berlin}`);
    await page.getByRole('heading', { name: /^History/ }).waitFor();
    await page
      .getByText(/FactSuperseded|FactRetracted/)
      .first()
      .waitFor();
    await page.getByRole('link', { name: ids.lisbon! }).waitFor();
    // Each event with its batch, the key that wrote it (none here: written by the host) and its causation.
    const closed = page.locator('tbody tr').filter({ hasText: 'FactSuperseded' }).first();
    expect(await closed.innerText()).toContain('batch move-2026');
    expect(await closed.innerText()).toContain('caused by hr-ticket-7');
  });

  it('shows what a memory hangs on, and once that changed, that it is unconfirmed and what took its place', async () => {
    const { ledger, cascade } = server.handle;
    const lead = await ledger.assert('crew', { subject: 'night crew', relation: 'lead', value: 'Ilse Brandt' });
    const rota = await ledger.assert('crew', { subject: 'dock rota', relation: 'set by', value: 'Ilse Brandt', dependsOn: [{ subject: 'night crew', relation: 'lead' }] });
    const page = await fresh();
    await page.goto(`${server.base}/inspector/tenants/crew/memories/${rota.memoryId}`);
    await signIn(page, keys.crew!);
    await page.getByText('hangs on').waitFor();
    await page.getByRole('link', { name: lead.memoryId }).waitFor();
    expect(await page.getByText('unconfirmed').count()).toBe(0);
    const next = await ledger.assert('crew', { subject: 'night crew', relation: 'lead', value: 'Tomas Lind' });
    await cascade.catchUp();
    await page.reload();
    await page.locator('.status.unconfirmed').waitFor();
    await page.getByRole('link', { name: 'what it hangs on' }).waitFor();
    expect(await page.getByRole('link', { name: 'what it hangs on' }).getAttribute('href')).toContain(lead.memoryId);
    await page.getByRole('link', { name: next.memoryId }).waitFor();
  });

  /** What recall hands the model for `query`, asked over HTTP with tenant acme's key. */
  async function recalled(query: string): Promise<string> {
    const res = await fetch(`${server.base}/v1/tenants/acme/context`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.acme}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { text: string }).text;
  }

  it('recalls with a budget and shows the context as the model gets it, and the trace as a funnel with each score named', async () => {
    const page = await fresh();
    await page.goto(`${server.base}/inspector/tenants/acme/recall`);
    await signIn(page, keys.acme!);
    await page.getByLabel('Query').fill('Where does Ada live?');
    await page.getByLabel('Budget (tokens)').fill('200');
    await page.getByLabel('Query').press('Enter');
    const context = page.locator('pre.context');
    await context.waitFor();
    expect(await context.innerText()).toContain('Lisbon');
    expect(await context.innerText()).not.toContain('Berlin');
    await page.getByRole('list', { name: 'funnel' }).waitFor();
    const headers = await page.locator('table.pool th').allInnerTexts();
    expect(headers.map((h) => h.toLowerCase())).toEqual(expect.arrayContaining(['cosine similarity', 'bm25 rank score', 'trigram word similarity']));
    expect(headers.join(' ').toLowerCase()).not.toContain('distance');
    expect(await page.locator('table.pool tr.marked').filter({ hasText: 'Lisbon' }).count()).toBe(1);
    await page.screenshot({ path: join(SHOTS, `recall-${backend}-wide.png`), fullPage: true });
    // The trace is a page of its own.
    await page.getByRole('link', { name: "This assembly's trace, as a link" }).click();
    await page.waitForURL(/\/inspector\/tenants\/acme\/traces\/[0-9a-f-]{36}$/);
    await page.getByRole('list', { name: 'funnel' }).waitFor();
    expect(await page.getByText('“Where does Ada live?”').count()).toBe(1);
  });

  it('quarantines a memory from its page, with a reason; it leaves the read paths and recall', async () => {
    expect(await recalled('Where is the quarterly review?')).toContain('quarterly review moved to the big room');
    const page = await fresh();
    await page.goto(`${server.base}/inspector/tenants/acme/memories/${ids.note}`);
    await signIn(page, keys.acme!);
    await page.getByLabel('Reason', { exact: true }).fill('not confirmed by facilities');
    await page.getByRole('button', { name: 'Quarantine' }).click();
    await page.getByRole('button', { name: 'Restore' }).waitFor();
    const memory = await server.handle.ledger.memory('acme', { memoryId: ids.note });
    expect(memory.status).toBe('quarantined');
    expect((await server.handle.ledger.activeMemories('acme')).map((m) => m.memoryId)).not.toContain(ids.note);
    expect(await recalled('Where is the quarterly review?')).not.toContain('quarterly review moved to the big room');
    await page.getByLabel('Reason', { exact: true }).fill('confirmed by facilities after all');
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('button', { name: 'Quarantine' }).waitFor();
    expect((await server.handle.ledger.memory('acme', { memoryId: ids.note })).status).toBe('active');
    await page.getByLabel('New type', { exact: true }).fill('event');
    await page.getByLabel('Reason for the new type').fill('it is a meeting, not a fact');
    await page.getByRole('button', { name: 'Retype' }).click();
    await page.locator('dl.facts', { hasText: 'event ·' }).waitFor();
    expect((await server.handle.ledger.memory('acme', { memoryId: ids.note })).type).toBe('event');
    // Each reason is on its event, as the memory's history shows it.
    const events = (await server.handle.store.readStream('acme', (await server.handle.reader.memory('acme', ids.note!))!.streamId)).events;
    expect(events.map((e) => [e.type, (e.data as { reason?: string }).reason])).toEqual(
      expect.arrayContaining([
        ['MemoryQuarantined', 'not confirmed by facilities'],
        ['MemoryRestored', 'confirmed by facilities after all'],
        ['MemoryRetyped', 'it is a meeting, not a fact'],
      ]),
    );
  });

  it('shows what was believed at two transaction times, and the diff between them with its event and batch', async () => {
    const page = await fresh();
    await page.goto(`${server.base}/inspector/tenants/acme/audit?knownAt=${encodeURIComponent(before)}`);
    await signIn(page, keys.acme!);
    await page.getByRole('link', { name: 'Ada · lives in · Berlin' }).waitFor();
    expect(await page.getByText('Ada · lives in · Lisbon').count()).toBe(0);
    await page.goto(`${server.base}/inspector/tenants/acme/audit?knownAt=${encodeURIComponent(after)}`);
    await page.getByRole('link', { name: 'Ada · lives in · Lisbon' }).waitFor();
    expect(await page.getByText('Ada · lives in · Berlin').count()).toBe(0);
    await page.goto(`${server.base}/inspector/tenants/acme/audit/diff?from=${encodeURIComponent(before)}&to=${encodeURIComponent(after)}`);
    const row = page.getByRole('row').filter({ hasText: 'Ada · lives in' });
    await row.waitFor();
    expect(await row.locator('td.before').innerText()).toBe('Berlin');
    expect(await row.locator('td.after').innerText()).toBe('Lisbon');
    expect(await row.innerText()).toContain('batch move-2026');
    await page.screenshot({ path: join(SHOTS, `audit-diff-${backend}-wide.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, `audit-diff-${backend}-narrow.png`), fullPage: true });
  });

  it("draws a key's versions on two time axes, marks the one held at the as-of point, and says what the agent would have been told", async () => {
    const page = await fresh();
    const key = `subject=payments&relation=port&validAt=2026-03-01&knownAt=${encodeURIComponent(beforeCorrection)}`;
    await page.goto(`${server.base}/inspector/tenants/acme/facts?${key}`);
    await signIn(page, keys.acme!);
    const told = page.locator('p.told');
    await told.waitFor();
    expect(await told.innerText()).toContain('the agent would have been told: 8080');
    const versions = page.locator('svg.timeline g.version');
    // The chart and the told value are two reads: wait for the chart too.
    await versions.first().waitFor();
    expect(await versions.count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('svg.timeline g.version.corrected').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('svg.timeline g.version.marked').getAttribute('data-value')).toBe('8080');
    expect(await page.locator('tr.marked').innerText()).toContain('8080');
    // Known now: the correction says 8080 never held, and 8443 did.
    await page.getByLabel('Known at').fill('');
    await page.getByRole('button', { name: 'Mark' }).click();
    await page.locator('p.told', { hasText: '8443' }).waitFor();
    expect(await page.locator('svg.timeline g.version.marked').getAttribute('data-value')).toBe('8443');
    expect(page.url()).not.toContain('knownAt=');
    // Valid in 2025, known now: the late-arriving older document's value.
    await page.getByLabel('Valid at').fill('2025-11-01');
    await page.getByRole('button', { name: 'Mark' }).click();
    await page.locator('p.told', { hasText: '7000' }).waitFor();
    await page.screenshot({ path: join(SHOTS, `history-${backend}-wide.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SHOTS, `history-${backend}-narrow.png`), fullPage: true });
  });

  it('lists an answer reopened by a supersession with the cited and the current value side by side, until it is marked reviewed', async () => {
    const { ledger, answers, saga, runner } = server.handle;
    const floor = await ledger.assert('acme', { subject: 'office', relation: 'floor', value: '3' });
    await answers.record('acme', { question: 'Which floor is the office on?', text: 'The office is on floor 3.', cites: [floor.memoryId] });
    const moved = await ledger.assert('acme', { subject: 'office', relation: 'floor', value: '5' });
    await runner.awaitPosition(moved.position);
    await saga.catchUp();
    const page = await fresh();
    await page.goto(`${server.base}/inspector/tenants/acme/answers`);
    await signIn(page, keys.acme!);
    const answer = page.getByRole('article', { name: /answer/ }).filter({ hasText: 'Which floor is the office on?' });
    await answer.waitFor();
    await answer.locator('td.after', { hasText: '5' }).waitFor();
    expect(await answer.locator('td.before').innerText()).toBe('3');
    await answer.getByRole('button', { name: 'Reviewed' }).click();
    await page.getByText('No answer waits for re-review').waitFor();
  });

  it("shows a message's triage and every candidate with its verdict and gates, reached from the memory it stored", async () => {
    const res = await fetch(`${server.base}/v1/tenants/acme/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.acme}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'I moved to Daejeon last week.', speaker: 'user', messageId: 'msg-1' }),
    });
    expect(res.status).toBe(201);
    const ingested = (await res.json()) as { stored: string[] };
    expect(ingested.stored.length).toBeGreaterThan(0);
    const page = await fresh();
    await page.goto(`${server.base}/inspector/tenants/acme/memories/${ingested.stored[0]}`);
    await signIn(page, keys.acme!);
    await page.getByRole('link', { name: 'message:msg-1' }).click();
    await page.waitForURL('**/inspector/tenants/acme/messages/msg-1');
    const candidate = page.getByRole('article', { name: 'candidate 1' });
    await candidate.waitFor();
    expect(await candidate.locator('.verdict').innerText()).toBe('admitted');
    expect(await candidate.innerText()).toContain('Daejeon');
    expect(await candidate.locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('dl.facts').innerText()).toContain('inform');
  });

  it('shows what a batch changed, and rolls it back for an admin key only', async () => {
    const { ledger } = server.handle;
    const a = await ledger.assert('acme', { text: 'The printer on floor 2 takes badge 4411.' });
    const b = await ledger.assert('acme', { text: 'The printer on floor 2 jams on A3 paper.' });
    await ledger.writeMany('acme', [{ quarantine: { memoryId: a.memoryId, reason: 'stale' } }, { quarantine: { memoryId: b.memoryId, reason: 'stale' } }], { batch: 'printer-cleanup' });
    const page = await fresh();
    await page.goto(`${server.base}/inspector/tenants/acme/batches/printer-cleanup`);
    await signIn(page, keys.acme!);
    await page.getByRole('heading', { name: 'Batch printer-cleanup' }).waitFor();
    await page.locator('tbody tr').first().waitFor();
    expect(await page.locator('tbody tr').filter({ hasText: 'MemoryQuarantined' }).count()).toBe(2);
    expect(await page.locator('li .status.quarantined').count()).toBe(2);
    // A key that may write but not administer is told so, and nothing changes.
    await page.getByRole('button', { name: 'Roll back this batch' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('forbidden');
    expect((await ledger.memory('acme', { memoryId: a.memoryId })).status).toBe('quarantined');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.goto(`${server.base}/inspector/tenants/acme/batches/printer-cleanup`);
    await signIn(page, keys.admin!);
    await page.getByRole('button', { name: 'Roll back this batch' }).click();
    await page.getByText('Rolled back: 2 change(s) compensated.').waitFor();
    await page.locator('li .status.active').nth(1).waitFor();
    expect((await ledger.memory('acme', { memoryId: a.memoryId })).status).toBe('active');
    expect((await ledger.memory('acme', { memoryId: b.memoryId })).status).toBe('active');
  });

  it("shows nothing of a tenant to another tenant's key", async () => {
    const page = await fresh();
    await page.goto(`${server.base}/inspector/tenants/acme/memories`);
    await signIn(page, keys.beta!);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).toContain('Nothing here for this API key');
    expect(await page.getByText('Ada').count()).toBe(0);
    expect(await page.getByRole('table').count()).toBe(0);
  });
});
