import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// The gateway serves the output at `/` with a Content-Security-Policy that allows no inline script
// or style: every asset is a file (nothing inlined as a data: URI) under /assets/ with a content hash.
export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/apps/console', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: true,
  },
  server: { proxy: { '/v1': 'http://localhost:3000' } },
});
