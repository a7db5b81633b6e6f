// Builds the web app into dist/web, served by the API at /app (src/transports/web-app.ts), with
// brotli and gzip copies of its text files (precompress.mts). `npm run web:dev` serves it with
// hot reload and passes /graphql and /app's JSON to an API started with `npm start` (API_URL,
// default http://127.0.0.1:4000).
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress.mts';

const api = process.env.API_URL ?? 'http://127.0.0.1:4000';

export default defineConfig(({ command }) => {
  // A build is what the server serves, whatever NODE_ENV the shell exported (the README's
  // `development` among them): Vite would otherwise build React's development bundle, with
  // this machine's source paths in it. Vite reads NODE_ENV again once this config is loaded.
  if (command === 'build') process.env.NODE_ENV = 'production';
  return {
    root: import.meta.dirname,
    base: '/app/',
    plugins: [react(), precompress()],
    build: {
      outDir: path.resolve(import.meta.dirname, '..', 'dist', 'web'),
      emptyOutDir: true,
      // Inline assets would need data: URLs in more CSP directives; files are fine.
      assetsInlineLimit: 0,
      chunkSizeWarningLimit: 600,
    },
    server: {
      host: '127.0.0.1',
      proxy: {
        '/graphql': { target: api, ws: true, changeOrigin: false },
        '/app/session.json': api,
        '/app/dev-token': api,
      },
    },
  };
});
