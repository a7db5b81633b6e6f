// The Lua loader's includes: expanded in place, nested, once per script, and a missing include or
// a cycle refused at load with the script and the include named. Checked on scripts written to a
// temporary folder, then on the product's own scripts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadScriptSources, ScriptIncludeError } from '../../src/redis/client/script-includes';
import { scriptSources } from '../../src/redis/client/scripts';

const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** A scripts folder holding `files` (paths relative to it, e.g. `includes/a.lua`). */
function folder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-lua-'));
  folders.push(dir);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const lines = (text: string) => text.split('\n');

describe('loadScriptSources', () => {
  it('puts the include in place of its line, between markers naming it, and leaves the rest as written', () => {
    const dir = folder({
      'main.lua': '-- main: test\n--- @include "double"\nreturn double(ARGV[1])\n',
      'includes/double.lua': '-- double (include)\nlocal function double(x) return 2 * x end\n',
    });
    expect(lines(loadScriptSources(dir).get('main')!)).toEqual([
      '-- main: test',
      '-- @include "double" begins (includes/double.lua)',
      '-- double (include)',
      'local function double(x) return 2 * x end',
      '-- @include "double" ends',
      'return double(ARGV[1])',
      '',
    ]);
  });

  it('accepts single quotes and a trailing semicolon, and names in subfolders of includes/', () => {
    const dir = folder({
      'main.lua': "--- @include 'deep/one';\nreturn one\n",
      'includes/deep/one.lua': 'local one = 1',
    });
    expect(lines(loadScriptSources(dir).get('main')!)).toEqual([
      '-- @include "deep/one" begins (includes/deep/one.lua)',
      'local one = 1',
      '-- @include "deep/one" ends',
      'return one',
      '',
    ]);
  });

  it('expands includes inside includes, the inner one first where the outer names it', () => {
    const dir = folder({
      'main.lua': '--- @include "outer"\nreturn outer()',
      'includes/outer.lua': '--- @include "inner"\nlocal function outer() return inner() + 1 end',
      'includes/inner.lua': 'local function inner() return 41 end',
    });
    expect(lines(loadScriptSources(dir).get('main')!)).toEqual([
      '-- @include "outer" begins (includes/outer.lua)',
      '-- @include "inner" begins (includes/inner.lua)',
      'local function inner() return 41 end',
      '-- @include "inner" ends',
      'local function outer() return inner() + 1 end',
      '-- @include "outer" ends',
      'return outer()',
    ]);
  });

  it('puts an include into a script once, however many times it is named, directly or through others', () => {
    const dir = folder({
      'main.lua': '--- @include "a"\n--- @include "b"\n--- @include "shared"\nreturn 1',
      'includes/a.lua': '--- @include "shared"\nlocal a = 1',
      'includes/b.lua': '--- @include "shared"\nlocal b = 2',
      'includes/shared.lua': 'local shared = 0',
    });
    const text = loadScriptSources(dir).get('main')!;
    expect(text.match(/local shared = 0/g)).toHaveLength(1);
    expect(text.match(/"shared": included above/g)).toHaveLength(2);
    // The first mention (inside a) holds it, so a, b and the script after it can use it.
    expect(text.indexOf('local shared = 0')).toBeLessThan(text.indexOf('local a = 1'));
    expect(text.indexOf('local a = 1')).toBeLessThan(text.indexOf('local b = 2'));
  });

  it('expands each script on its own: an include used by two scripts is in both', () => {
    const dir = folder({
      'one.lua': '--- @include "shared"\nreturn 1',
      'two.lua': '--- @include "shared"\nreturn 2',
      'includes/shared.lua': 'local shared = 0',
    });
    const sources = loadScriptSources(dir);
    expect([...sources.keys()]).toEqual(['one', 'two']);
    for (const text of sources.values()) expect(text.match(/local shared = 0/g)).toHaveLength(1);
  });

  it('refuses a missing include, naming the script, the include and the way to it', () => {
    const dir = folder({
      'main.lua': '--- @include "outer"\nreturn 1',
      'includes/outer.lua': '--- @include "nowhere"\nlocal outer = 1',
    });
    expect(() => loadScriptSources(dir)).toThrow(ScriptIncludeError);
    expect(() => loadScriptSources(dir)).toThrow(
      'Lua script main: include "nowhere" not found (includes/nowhere.lua, via main -> outer -> nowhere)',
    );
  });

  it('refuses a cycle of includes, naming the script and the cycle', () => {
    const dir = folder({
      'main.lua': '--- @include "a"\nreturn 1',
      'includes/a.lua': '--- @include "b"\nlocal a = 1',
      'includes/b.lua': '--- @include "a"\nlocal b = 1',
    });
    expect(() => loadScriptSources(dir)).toThrow('Lua script main: include cycle main -> a -> b -> a');
    const self = folder({ 'main.lua': '--- @include "a"', 'includes/a.lua': '--- @include "a"' });
    expect(() => loadScriptSources(self)).toThrow('Lua script main: include cycle main -> a -> a');
  });

  it('refuses an include line it cannot read and a name that leaves includes/', () => {
    const unquoted = folder({ 'main.lua': '--- @include shared\nreturn 1' });
    expect(() => loadScriptSources(unquoted)).toThrow('Lua script main: malformed include line: --- @include shared');
    const indented = folder({
      'main.lua': 'if true then\n  --- @include "shared"\nend\nreturn shared()',
      'includes/shared.lua': 'local function shared() return 1 end',
    });
    expect(() => loadScriptSources(indented)).toThrow(
      'Lua script main: an include line must start its line, outside any block: --- @include "shared"',
    );
    const escaping = folder({ 'main.lua': '--- @include "../main"\nreturn 1' });
    expect(() => loadScriptSources(escaping)).toThrow('Lua script main: include "../main" is not a plain name');
  });

  it('loads only the .lua files of the folder itself as scripts, never those in includes/', () => {
    const dir = folder({
      'b.lua': 'return 2',
      'a.lua': '--- @include "helper"\nreturn 1',
      'notes.txt': 'not a script',
      'includes/helper.lua': 'local helper = 1',
      'includes/unused.lua': 'local unused = 1',
    });
    expect([...loadScriptSources(dir).keys()]).toEqual(['a', 'b']);
  });
});

describe("the product's scripts", () => {
  const scriptsDir = path.join(__dirname, '..', '..', 'src', 'redis', 'scripts');
  const includesDir = path.join(scriptsDir, 'includes');
  const includeNames = fs
    .readdirSync(includesDir)
    .filter((file) => file.endsWith('.lua'))
    .map((file) => file.slice(0, -'.lua'.length))
    .sort();
  const sources = [...scriptSources()];

  it('have every include expanded and no include registered as a script', () => {
    expect(includeNames).toEqual([
      'chat-seen-floor',
      'lease-solo',
      'market-sale-task',
      'push-online',
      'push-target-of',
      'task-add',
    ]);
    for (const [, text] of sources) expect(text).not.toMatch(/^---[ \t]*@include/m);
    // market-sale-task is both: a script of its own (WATCH's writer) and the include it is made of.
    const names = sources.map(([name]) => name);
    expect(names).not.toContain('task-add');
    expect(names).not.toContain('chat-seen-floor');
    expect(names).toEqual(
      fs
        .readdirSync(scriptsDir)
        .filter((file) => file.endsWith('.lua'))
        .map((file) => file.slice(0, -'.lua'.length))
        .sort(),
    );
  });

  it('use every include, each where the issue put it', () => {
    const users = (include: string) =>
      sources.filter(([, text]) => text.includes(`-- @include "${include}" begins`)).map(([name]) => name);
    expect(users('task-add')).toEqual(['market-purchase', 'market-sale-task', 'task-enqueue', 'task-schedule-tick']);
    expect(users('market-sale-task')).toEqual(['market-purchase', 'market-sale-task']);
    expect(users('chat-seen-floor')).toEqual(['chat-fetch', 'chat-leave', 'chat-mark-seen']);
    expect(users('push-online')).toEqual([
      'push-candidates',
      'push-mailbox-claim',
      'push-presence-online',
      'push-send-check',
    ]);
  });

  it('write a task record and trim SEEN entries in one file each', () => {
    const raw = fs
      .readdirSync(scriptsDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.lua'))
      .map((file) => [file, fs.readFileSync(path.join(scriptsDir, file), 'utf8')] as const);
    const holding = (pattern: RegExp) => raw.filter(([, text]) => pattern.test(text)).map(([file]) => file);
    // A new record is the only one made with `attempts = 0`; the SEEN trim deletes up to a floor.
    expect(holding(/attempts = 0/)).toEqual([path.join('includes', 'task-add.lua')]);
    expect(holding(/'-inf', floor\)/)).toEqual([path.join('includes', 'chat-seen-floor.lua')]);
  });
});
