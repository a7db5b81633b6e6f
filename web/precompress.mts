// Brotli and gzip copies of the built app's text files (x.js.br and x.js.gz beside x.js), made
// once at build time at the highest levels, so the server (src/transports/precompressed.ts)
// sends them as they are and no request spends CPU on compression.
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|map|webmanifest)$/;
/** Below this a copy saves less than a round of headers. */
const MIN_BYTES = 1024;

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'ria-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // After every file is written, public/ copied in too.
    async closeBundle() {
      const files = fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' });
      await Promise.all(
        files.filter((name) => COMPRESSIBLE.test(name)).map((name) => compress(path.join(outDir, name))),
      );
    },
  };
}

async function compress(file: string): Promise<void> {
  const raw = fs.readFileSync(file);
  if (raw.length < MIN_BYTES) return;
  const copies = {
    '.br': await brotli(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
    '.gz': await gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
  };
  // A copy no smaller than the file is not worth a coding of its own.
  for (const [suffix, bytes] of Object.entries(copies))
    if (bytes.length < raw.length) fs.writeFileSync(file + suffix, bytes);
}
