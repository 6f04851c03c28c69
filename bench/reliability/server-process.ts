/**
 * The reliability suite's server: `dist/apps/server/src/main.js` as its own process (what
 * `npm start` runs), on a random loopback port, started and SIGKILLed as often as a cell wants.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** How long a clean stop (SIGTERM) may take. */
const STOP_MS = 15_000;
const MAIN = join(__dirname, '..', '..', 'apps', 'server', 'src', 'main.js');
/** The built `factledger` CLI, which the cells run as processes of its own (a worker, a rebuild, an erasure). */
export const CLI = join(__dirname, '..', '..', 'apps', 'cli', 'src', 'main.js');

export interface ServerProcess {
  /** `http://127.0.0.1:<port>` */
  base: string;
  child: ChildProcess;
  /** Resolves with the exit code, or the signal's name, when the process has gone. */
  exited: Promise<number | string>;
  /** What it wrote, for a failure's message. */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<number | string>;
}

/** Starts the server with `env` beside the parent's and resolves once it listens (or rejects with what it wrote). */
export async function startServer(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--max-semi-space-size=64', MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', FACTLEDGER_RATE_LIMIT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code ?? -1)));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not listen within ${timeoutMs} ms:\n${output.slice(-4000)}`)), timeoutMs);
    const read = (chunk: Buffer): void => {
      output += String(chunk);
      const url = /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${how}) before it listened:\n${output.slice(-4000)}`));
    });
  });
  return {
    base,
    child,
    exited,
    output: () => output,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      if (signal === 'SIGKILL') return exited;
      // A clean stop that does not end within STOP_MS is a failure of its own: said, then forced.
      const timer = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), STOP_MS).unref());
      if ((await Promise.race([exited, timer])) !== 'hung') return exited;
      child.kill('SIGKILL');
      await exited;
      throw new Error(`the server did not stop within ${STOP_MS / 1000} s of ${signal}:\n${output.slice(-2000)}`);
    },
  };
}
