/**
 * Serves the web inspector (apps/inspector, built by `npm run build` into dist/inspector) at
 * /inspector: its files as they are, and its page for every other path under /inspector, so that
 * any view's URL opens cold. The files hold no data: every read goes through the API, with the
 * key pasted at sign-in, so they are served without one.
 */
import { createReadStream, existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';

export const INSPECTOR_PATH = '/inspector';

/** dist/inspector of the checkout this module was loaded from (source or dist), or null when it was not built. */
export function inspectorDir(): string | null {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) {
      const built = join(dir, 'dist', 'inspector');
      return existsSync(join(built, 'index.html')) ? built : null;
    }
    if (dirname(dir) === dir) return null;
  }
}

export function serveInspector(app: NestExpressApplication, dir: string | null = inspectorDir()): void {
  if (!dir) {
    app.use(INSPECTOR_PATH, (_req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('The inspector is not built: run npm run build.\n');
    });
    return;
  }
  app.useStaticAssets(dir, { prefix: `${INSPECTOR_PATH}/`, index: false, fallthrough: true });
  const page = join(dir, 'index.html');
  app.use(INSPECTOR_PATH, (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    if (req.method === 'HEAD') return res.end();
    createReadStream(page).pipe(res);
  });
}
