// The configuration reference, docs/configuration.md, written from the settings each domain
// declares, so it says what the loader reads (as schema.graphql says what the classes define).
import fs from 'node:fs';
import path from 'node:path';
import { SETTING_DOMAINS } from '../config';
import type { SettingDomain } from '../common/settings';

export const CONFIG_DOCS_FILE = path.resolve(__dirname, '../../docs/configuration.md');

const INTRO = `# Configuration

Every setting is an environment variable, read and checked once at start. A blank value counts as
unset. A bad value stops start-up with one fatal log line (code \`CONFIG_INVALID\`) that names each
variable that is wrong, and the rule it breaks.

This page is generated from the settings each domain declares beside its code
(a \`settings.ts\` in the domain's folder, or \`<module>.settings.ts\` beside a module; the list is
\`SETTING_DOMAINS\`) by \`npm run docs:config\`. Do not edit it by
hand: \`npm test\` fails when it differs from the declarations.
`;

const anchor = (title: string): string =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

/** A table cell: one line, and a `|` would end the cell early. */
const cell = (text: string | undefined): string => (text ?? '').replace(/\n/g, ' ').replace(/\|/g, '\\|');

function section(domain: SettingDomain): string {
  const rows = Object.entries(domain.settings).map(
    ([name, setting]) =>
      `| \`${name}\` | ${cell(setting.type)} | ${cell(setting.defaultText)} | ${cell(setting.bounds)} | ${cell(setting.description)} |`,
  );
  return [
    `## ${domain.title}`,
    '',
    domain.summary,
    '',
    '| variable | type | default | allowed | description |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}

export function renderConfigDocs(domains: readonly SettingDomain[] = SETTING_DOMAINS): string {
  const count = (domain: SettingDomain): number => Object.keys(domain.settings).length;
  const total = domains.reduce((sum, domain) => sum + count(domain), 0);
  const contents = domains.map((domain) => `- [${domain.title}](#${anchor(domain.title)}) (${count(domain)})`);
  return [INTRO, `${total} settings in ${domains.length} domains:`, '', ...contents, '', ...domains.map(section)].join(
    '\n',
  );
}

/**
 * `--check`: whether `file` holds the reference as the declarations give it (exit code 1 if not);
 * otherwise writes it there.
 */
export function runConfigDocs(args: readonly string[], file = CONFIG_DOCS_FILE): { code: number; message: string } {
  const text = renderConfigDocs();
  const shown = path.relative(process.cwd(), file);
  if (args.includes('--check')) {
    const committed = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (committed !== text) {
      return {
        code: 1,
        message: `${shown} is out of date with the declared settings: run \`npm run docs:config\` and commit it.`,
      };
    }
    return { code: 0, message: `${shown} is up to date` };
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return { code: 0, message: `wrote ${shown}` };
}
