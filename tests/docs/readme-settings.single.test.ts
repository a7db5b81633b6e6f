// The README's short table of settings is written by hand beside the generated reference: every
// variable it names must be one the code declares, so a rename cannot leave it behind.
import fs from 'node:fs';
import path from 'node:path';
import { SETTING_DOMAINS } from '../../src/config';

const README = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');

/** The first column of every row of the table headed `| variable | … |`. */
function tableVariables(markdown: string): string[] {
  const lines = markdown.split('\n');
  const head = lines.findIndex((line) => /^\|\s*variable\s*\|/.test(line));
  if (head < 0) return [];
  const rows: string[] = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|')[1].trim().replace(/^`|`$/g, ''));
  }
  return rows;
}

describe("the README's settings table", () => {
  it('names only declared variables, each once', () => {
    const declared = new Set(SETTING_DOMAINS.flatMap((domain) => Object.keys(domain.settings)));
    const named = tableVariables(README);
    expect(named.length).toBeGreaterThanOrEqual(5);
    expect(named.filter((name) => !declared.has(name))).toEqual([]);
    expect(new Set(named).size).toBe(named.length);
  });

  it('reads a table it is given, and stops at its end', () => {
    const table = '| variable | what |\n| --- | --- |\n| `A` | a |\n| `B` | b |\n\ntext\n| `C` | c |';
    expect(tableVariables(table)).toEqual(['A', 'B']);
  });
});
