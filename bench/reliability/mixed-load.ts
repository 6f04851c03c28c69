/**
 * The soak's mix of requests (writes, messages, recalls, as-of reads), each a stream of its own for
 * `autocannon`, and the rate of each the soak asks for. Shared by the soak cell and `npm run bench:load`,
 * which ramps the same mix until the server's p99 passes its bound.
 */
import type autocannon from 'autocannon';

/** Requests a second of each stream the soak asks for (docs/reliability.md). */
export const SOAK_RATES = { writes: 20, messages: 5, recalls: 5, 'as-of reads': 20 } as const;

export type StreamName = keyof typeof SOAK_RATES;

/** The subjects the as-of reads look at: written once by `seedMix` before the load. */
const SEEDED = 20;

/** Writes what the as-of reads and recalls find from the start. */
export async function seedMix(base: string, tenant: string): Promise<void> {
  for (let i = 0; i < SEEDED; i++) {
    await fetch(`${base}/v1/tenants/${tenant}/memories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ subject: `service ${i}`, relation: 'port', value: String(8000 + i), validFrom: '2026-01-01' }),
    });
  }
}

/** The four streams' requests for `tenant`; each call makes a new request body (autocannon's setupRequest). */
export function mixedStreams(tenant: string): Record<StreamName, autocannon.Request> {
  let n = 0;
  const json = { 'content-type': 'application/json' };
  return {
    writes: {
      method: 'POST',
      path: `/v1/tenants/${tenant}/memories`,
      setupRequest: (r: autocannon.Request) => ({ ...r, headers: json, body: JSON.stringify({ subject: `service ${n++ % 500}`, relation: 'port', value: String(9000 + n) }) }),
    },
    messages: {
      method: 'POST',
      path: `/v1/tenants/${tenant}/messages`,
      setupRequest: (r: autocannon.Request) => ({
        ...r,
        headers: json,
        body: JSON.stringify({ speaker: 'user', text: `I moved build agent ${n++ % 200} to the ${['Frankfurt', 'Dublin', 'Oslo'][n % 3]} region this week.` }),
      }),
    },
    recalls: {
      method: 'POST',
      path: `/v1/tenants/${tenant}/context`,
      setupRequest: (r: autocannon.Request) => ({ ...r, headers: json, body: JSON.stringify({ query: `Which port does service ${n++ % 500} listen on?`, budgetTokens: 300 }) }),
    },
    'as-of reads': {
      method: 'GET',
      path: `/v1/tenants/${tenant}/facts`,
      setupRequest: (r: autocannon.Request) => ({ ...r, path: `/v1/tenants/${tenant}/facts?subject=${encodeURIComponent(`service ${n++ % SEEDED}`)}&relation=port&validAt=2026-06-01` }),
    },
  };
}
