/**
 * The one configuration object, read and validated once at start-up. Every default works
 * embedded: no variable set means PGlite in `./.data/factledger`.
 */
import { z } from 'zod';
import { InvalidInputError } from '@factledger/domain';

const configSchema = z.object({
  databaseUrl: z.string().url().optional(),
  dataDir: z.string().min(1).default('.data/factledger'),
  port: z.coerce.number().int().min(0).max(65535).default(3000),
  host: z.string().default('127.0.0.1'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  migrateOnStart: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  readWaitMs: z.coerce.number().int().min(0).max(60_000).default(2000),
});

export type LedgerConfig = z.output<typeof configSchema>;

/** From environment variables: DATABASE_URL, FACTLEDGER_DATA_DIR, PORT, HOST, LOG_LEVEL, … */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Record<keyof LedgerConfig, unknown>> = {}): LedgerConfig {
  const result = configSchema.safeParse({
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.FACTLEDGER_DATA_DIR || undefined,
    port: env.PORT || undefined,
    host: env.HOST || undefined,
    logLevel: env.LOG_LEVEL || undefined,
    migrateOnStart: env.FACTLEDGER_MIGRATE_ON_START || undefined,
    readWaitMs: env.FACTLEDGER_READ_WAIT_MS || undefined,
    ...overrides,
  });
  if (!result.success) {
    throw new InvalidInputError(result.error.issues.map((i) => ({ path: `config.${i.path.join('.')}`, message: i.message })));
  }
  return result.data;
}
