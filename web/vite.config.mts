// Builds the web app into dist/web, served by the API at /app (src/transports/web-app.ts), with
// brotli and gzip copies of its text files (precompress.mts), and its service worker as sw.js. `npm run web:dev` serves it with
// hot reload and passes /graphql and /app's JSON to an API started with `npm start` (API_URL,
// default http://127.0.0.1:4000).
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress.mts';

const api = process.env.API_URL ?? 'http://127.0.0.1:4000';

/**
 * The worker is registered as a classic script, which cannot import: a chunk shared with the
 * app (anything sw.ts imports at run time) would break it, so the build fails instead.
 */
function standaloneWorker(): Plugin {
  return {
    name: 'standalone-worker',
    generateBundle(_options, bundle) {
      const worker = bundle['sw.js'];
      if (worker?.type !== 'chunk') this.error('sw.js was not built');
      else if (worker.imports.length > 0 || worker.dynamicImports.length > 0)
        this.error(
          `sw.js must import nothing at run time; it imports ${[...worker.imports, ...worker.dynamicImports].join(', ')}`,
        );
    },
  };
}

export default defineConfig(({ command }) => {
  // A build is what the server serves, whatever NODE_ENV the shell exported (the README's
  // `development` among them): Vite would otherwise build React's development bundle, with
  // this machine's source paths in it. Vite reads NODE_ENV again once this config is loaded.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: import.meta.dirname,
    base: '/app/',
    plugins: [react(), standaloneWorker(), precompress()],
    build: {
      outDir: path.resolve(import.meta.dirname, '..', 'dist', 'web'),
      emptyOutDir: true,
      // Inline assets would need data: URLs in more CSP directives; files are fine.
      assetsInlineLimit: 0,
      chunkSizeWarningLimit: 600,
      rolldownOptions: {
        // The service worker is a second entry: at a fixed address (a registration is tied to
        // its script's URL), and the server makes browsers revalidate it rather than cache it.
        input: {
          index: path.resolve(import.meta.dirname, 'index.html'),
          sw: path.resolve(import.meta.dirname, 'sw', 'sw.ts'),
        },
        output: {
          entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js'),
        },
      },
    },
    server: {
      host: '127.0.0.1',
      proxy: {
        '/graphql': { target: api, ws: true, changeOrigin: false },
        '/app/session.json': api,
        '/app/dev-token': api,
        // The built worker (`npm run build`): pushes reach the app only through it.
        '/app/sw.js': api,
      },
    },
  };
});
