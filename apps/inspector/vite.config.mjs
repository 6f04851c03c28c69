// The web inspector's build: a static bundle under dist/inspector, served by the factledger
// server at /inspector (apps/server/src/inspector.ts). No runtime server of its own.
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/inspector/',
  plugins: [preact()],
  logLevel: 'warn',
  build: { outDir: fileURLToPath(new URL('../../dist/inspector', import.meta.url)), emptyOutDir: true, sourcemap: true },
});
