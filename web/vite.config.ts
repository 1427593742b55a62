import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

// Built into the package's dist/web; the Koa service serves it (server/http/web-app.ts).
export default defineConfig({
  root: here,
  base: '/',
  plugins: [preact()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Inline nothing: the Content-Security-Policy allows scripts and styles from 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
  },
  logLevel: 'warn',
});
