import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The entry script is small (it starts the session resume) and loads the rest with `import()`;
 * index.html preloads that rest too, so a first visit fetches both at once instead of one after
 * the other.
 */
function preloadEntryImports(): Plugin {
  return {
    name: 'vigil-preload-entry-imports',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk }) {
        if (!bundle || !chunk) return [];
        const files = chunk.dynamicImports.flatMap((name) => {
          const imported = bundle[name];
          return imported?.type === 'chunk' ? [imported.fileName, ...imported.imports.filter((f) => f !== chunk.fileName)] : [];
        });
        return [...new Set(files)].map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}

// The gateway serves the output at `/` with a Content-Security-Policy that allows no inline script
// or style: every asset is a file (nothing inlined as a data: URI) under /assets/ with a content hash.
export default defineConfig({
  root,
  base: '/',
  plugins: [react(), preloadEntryImports()],
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
