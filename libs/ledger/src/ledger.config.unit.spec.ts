import { DEFAULT_REVIEW_POLICY, InvalidInputError } from '@factledger/domain';
import { loadConfig } from './ledger.config';

describe('configuration', () => {
  it('has defaults that work embedded', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ dataDir: '.data/factledger', embeddings: 'use-lite', addressTerms: [], traceRetentionDays: 30, llmMaxRevisions: 2 });
    expect(c.reviewPolicy).toEqual(DEFAULT_REVIEW_POLICY);
    expect(c.llmUrl).toBeUndefined();
  });

  it('reads address terms, the review policy (merged over the defaults) and the language model', () => {
    const c = loadConfig({
      FACTLEDGER_ADDRESS_TERMS: 'Socrates, bot ,',
      FACTLEDGER_REVIEW_POLICY: '{"threshold":0.5,"magnitudes":{"MemoryRetyped":0.6}}',
      FACTLEDGER_LLM_URL: 'http://127.0.0.1:11434',
      FACTLEDGER_LLM_MODEL: 'llama3',
    });
    expect(c.addressTerms).toEqual(['Socrates', 'bot']);
    expect(c.reviewPolicy).toEqual({ threshold: 0.5, magnitudes: { ...DEFAULT_REVIEW_POLICY.magnitudes, MemoryRetyped: 0.6 } });
    expect(c).toMatchObject({ llmUrl: 'http://127.0.0.1:11434', llmModel: 'llama3' });
  });

  it('rejects what it cannot use, naming the setting', () => {
    const issues = (env: Record<string, string>): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(InvalidInputError);
        return (error as InvalidInputError).issues.map((i) => i.path);
      }
    };
    expect(issues({ FACTLEDGER_REVIEW_POLICY: 'not json' })).toEqual(['config.reviewPolicy']);
    expect(issues({ FACTLEDGER_LLM_URL: 'http://x' })).toEqual(['config.llmModel']);
    expect(issues({ FACTLEDGER_EMBEDDINGS: 'openai' })).toEqual(['config.embeddingsUrl', 'config.embeddingsModel', 'config.embeddingsDimensions']);
  });
});

describe('the event store setting', () => {
  it('keeps the log in PostgreSQL unless told otherwise', () => {
    expect(loadConfig({}).eventStore).toBe('postgres');
  });

  it('takes KurrentDB with its URL, and names the missing or malformed URL', () => {
    expect(loadConfig({ FACTLEDGER_EVENT_STORE: 'kurrentdb', KURRENTDB_URL: 'kurrentdb://localhost:2113?tls=false' })).toMatchObject({
      eventStore: 'kurrentdb',
      kurrentdbUrl: 'kurrentdb://localhost:2113?tls=false',
    });
    expect(() => loadConfig({ FACTLEDGER_EVENT_STORE: 'kurrentdb' })).toThrow(/config\.kurrentdbUrl/);
    expect(() => loadConfig({ FACTLEDGER_EVENT_STORE: 'kurrentdb', KURRENTDB_URL: 'http://localhost:2113' })).toThrow(/config\.kurrentdbUrl: must be a kurrentdb/);
    expect(() => loadConfig({ FACTLEDGER_EVENT_STORE: 'mongodb' })).toThrow(/config\.eventStore/);
  });

  it('reads the standbys reads may be served from, only beside a PostgreSQL primary', () => {
    expect(loadConfig({}).readUrls).toEqual([]);
    const c = loadConfig({ DATABASE_URL: 'postgres://p@db1/fl', FACTLEDGER_READ_URLS: ' postgres://r@db2/fl, postgres://r@db3/fl ', FACTLEDGER_REPLICA_WAIT_MS: '50' });
    expect(c.readUrls).toEqual(['postgres://r@db2/fl', 'postgres://r@db3/fl']);
    expect(c.replicaWaitMs).toBe(50);
    expect(loadConfig({ DATABASE_URL: 'postgres://p@db1/fl' }).replicaWaitMs).toBe(200);
    expect(() => loadConfig({ FACTLEDGER_READ_URLS: 'postgres://r@db2/fl' })).toThrow(/config\.readUrls: read replicas need a PostgreSQL primary/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://p@db1/fl', FACTLEDGER_READ_URLS: 'db2' })).toThrow(/config\.readUrls/);
  });
});
