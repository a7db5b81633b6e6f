// A failure inside an include, as Redis reports it: the line number it gives falls between the
// markers that name the include, so the error can be traced to the file it came from.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadScriptSources } from '../../src/redis/client/script-includes';
import { startTestRedis, type TestRedis } from '../support/redis';

let redis: TestRedis;
let dir: string;

beforeAll(async () => {
  redis = await startTestRedis();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-lua-'));
});

afterAll(async () => {
  await redis.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('reports a failing line of an include at a line the markers attribute to that include', async () => {
  fs.mkdirSync(path.join(dir, 'includes'));
  fs.writeFileSync(
    path.join(dir, 'main.lua'),
    '-- main: calls a helper that fails\n--- @include "helper"\nlocal x = 1\nreturn fail(x)\n',
  );
  fs.writeFileSync(
    path.join(dir, 'includes', 'helper.lua'),
    "-- helper (include)\nlocal function fail(x)\n  return redis.call('NOSUCHCOMMAND', x)\nend\n",
  );
  const text = loadScriptSources(dir).get('main')!;
  const error = await redis.client.eval(text, 0).then(
    () => undefined,
    (failure: Error) => failure,
  );
  expect(error).toBeInstanceOf(Error);
  const line = Number(/user_script:(\d+)/.exec(error!.message)?.[1]);
  const lines = text.split('\n');
  expect(lines[line - 1]).toBe("  return redis.call('NOSUCHCOMMAND', x)");
  // The nearest marker above it opens the include.
  const above = lines.slice(0, line - 1).reverse();
  expect(above.find((one) => one.startsWith('-- @include'))).toBe('-- @include "helper" begins (includes/helper.lua)');
});
