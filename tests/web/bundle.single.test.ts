// The web app as `npm run build:web` builds it with NODE_ENV=development exported (as docs/development.md's dev loop does):
// React's production bundle, no path of this machine in it, and a brotli and a gzip copy of each
// text file that decode to the file itself. Builds into a folder of its own (dist/web is served
// by the other browser tests).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const ROOT = path.resolve(__dirname, '..', '..');
let outDir: string;

beforeAll(() => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-web-build-'));
  const build = spawnSync('npm', ['run', 'build:web', '--', '--outDir', outDir], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'development' },
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`npm run build:web failed:\n${build.stdout}\n${build.stderr}`);
}, 120_000);
afterAll(() => {
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

const files = (): string[] =>
  fs
    .readdirSync(outDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => fs.statSync(path.join(outDir, name)).isFile());

/** The entry chunk index.html loads. */
function mainChunk(): string {
  const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const src = /<script type="module" crossorigin src="\/app\/(assets\/index-[\w-]+\.js)">/.exec(html)?.[1];
  expect(src).toBeDefined();
  return path.join(outDir, src!);
}

describe('the web app built with NODE_ENV=development', () => {
  it("is React's production build", () => {
    const main = fs.readFileSync(mainChunk(), 'utf8');
    // Production React throws coded errors with a link; development React has jsxDEV and its checks.
    expect(main.includes('react.dev/errors/')).toBe(true);
    for (const name of files().filter((file) => file.endsWith('.js'))) {
      const text = fs.readFileSync(path.join(outDir, name), 'utf8');
      expect([name, text.includes('jsxDEV'), text.includes('react-dom.development')]).toEqual([name, false, false]);
    }
  });

  it('holds no absolute path of the machine that built it', () => {
    const text = files().filter((name) => /\.(?:js|css|html|svg)$/.test(name));
    expect(text.length).toBeGreaterThanOrEqual(4);
    for (const name of text) {
      const content = fs.readFileSync(path.join(outDir, name), 'utf8');
      expect([name, content.includes(ROOT), content.includes(outDir)]).toEqual([name, false, false]);
    }
  });

  it('has a brotli and a gzip copy of each text file over 1 KB, smaller and decoding to the same bytes', () => {
    const all = new Set(files());
    const text = [...all].filter((name) => /\.(?:js|css|html|svg)$/.test(name));
    let copied = 0;
    for (const name of text) {
      const raw = fs.readFileSync(path.join(outDir, name));
      if (raw.length < 1024) {
        expect([name, all.has(`${name}.br`), all.has(`${name}.gz`)]).toEqual([name, false, false]);
        continue;
      }
      const br = fs.readFileSync(path.join(outDir, `${name}.br`));
      const gz = fs.readFileSync(path.join(outDir, `${name}.gz`));
      expect(zlib.brotliDecompressSync(br).equals(raw)).toBe(true);
      expect(zlib.gunzipSync(gz).equals(raw)).toBe(true);
      expect(br.length).toBeLessThan(gz.length);
      expect(gz.length).toBeLessThan(raw.length);
      copied++;
    }
    expect(copied).toBeGreaterThanOrEqual(3);
    // The main chunk shrinks to under a third of itself in either coding.
    const main = mainChunk();
    const size = (file: string): number => fs.statSync(file).size;
    expect(size(`${main}.br`) * 3).toBeLessThan(size(main));
    expect(size(`${main}.gz`) * 3).toBeLessThan(size(main));
  });
});
