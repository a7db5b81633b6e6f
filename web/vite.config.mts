// Builds the web app into dist/web, served by the API at /app (src/transports/web-app.ts).
// `npm run web:dev` serves it with hot reload and passes /graphql and /app's JSON to an API
// started with `npm start` (API_URL, default http://127.0.0.1:4000).
import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const api = process.env.API_URL ?? 'http://127.0.0.1:4000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [react()],
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
});
