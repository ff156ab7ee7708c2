import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The portal is served by notification-api under /portal/: hashed, immutable assets, no inline
// script, nothing from another origin (see docs/portal.md).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/portal/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/apps/portal', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
});
