// Reads the Lua scripts of a folder and resolves their includes, so a piece of Lua that several
// scripts need is written once. A line `--- @include "name"` (BullMQ's convention) stands for the
// text of includes/<name>.lua; includes may include others. Each include goes into a script once,
// at its first mention, so a helper two includes share is defined once. The folder's includes/
// subfolder is never a script of its own.
import fs from 'node:fs';
import path from 'node:path';

const INCLUDES_DIR = 'includes';

/** The whole line, with the name between double or single quotes; trailing blanks or `;` allowed. */
const INCLUDE_LINE = /^---[ \t]*@include[ \t]+(["'])([^"']+)\1[ \t;]*$/;

/** Names stay inside includes/: letters, digits, `-` and `_`, with `/` between folders. */
const INCLUDE_NAME = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

export class ScriptIncludeError extends Error {
  override readonly name = 'ScriptIncludeError';
}

/** Every `*.lua` directly in `dir`, by name without `.lua`, in name order, with includes expanded. */
export function loadScriptSources(dir: string): Map<string, string> {
  const read = includeReader(path.join(dir, INCLUDES_DIR));
  const sources = new Map<string, string>();
  for (const file of fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.lua'))
    .map((entry) => entry.name)
    .sort()) {
    const name = file.slice(0, -'.lua'.length);
    sources.set(name, expandIncludes(name, fs.readFileSync(path.join(dir, file), 'utf8'), read));
  }
  return sources;
}

/** Reads each include once however many scripts use it; undefined when there is no such file. */
function includeReader(includesDir: string): (name: string) => string | undefined {
  const cache = new Map<string, string | undefined>();
  return (name) => {
    if (!cache.has(name)) {
      const file = path.join(includesDir, `${name}.lua`);
      cache.set(name, fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
    }
    return cache.get(name);
  };
}

/**
 * `source` with each include line replaced by the include's text, between two comment lines that
 * name it: Redis reports errors by line of the text it ran, and the markers say which file a line
 * came from. A second mention of an include already in the script becomes a comment alone.
 */
function expandIncludes(script: string, source: string, read: (name: string) => string | undefined): string {
  const included = new Set<string>();
  const expand = (text: string, chain: string[]): string =>
    text
      .split('\n')
      .map((line) => {
        const match = INCLUDE_LINE.exec(line.trimEnd());
        if (!match) {
          // Indented, it would sit in a block whose locals the rest of the script cannot see, and
          // a later mention would then be left out as "included above": refused, not passed over.
          if (/^[ \t]*---[ \t]*@include\b/.test(line)) {
            const why = /^[ \t]/.test(line)
              ? 'an include line must start its line, outside any block'
              : 'malformed include line';
            throw new ScriptIncludeError(`Lua script ${script}: ${why}: ${line.trim()}`);
          }
          return line;
        }
        const name = match[2];
        const where = [...chain, name].join(' -> ');
        if (!INCLUDE_NAME.test(name)) {
          throw new ScriptIncludeError(`Lua script ${script}: include "${name}" is not a plain name (${where})`);
        }
        if (chain.includes(name)) {
          throw new ScriptIncludeError(`Lua script ${script}: include cycle ${script} -> ${where}`);
        }
        if (included.has(name)) return `-- @include "${name}": included above`;
        const text = read(name);
        if (text === undefined) {
          throw new ScriptIncludeError(
            `Lua script ${script}: include "${name}" not found (${INCLUDES_DIR}/${name}.lua, via ${script} -> ${where})`,
          );
        }
        included.add(name);
        const body = expand(text.endsWith('\n') ? text.slice(0, -1) : text, [...chain, name]);
        return `-- @include "${name}" begins (${INCLUDES_DIR}/${name}.lua)\n${body}\n-- @include "${name}" ends`;
      })
      .join('\n');
  return expand(source, []);
}
