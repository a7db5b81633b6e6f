// The settings each domain declares (a settings.ts in its folder or a <module>.settings.ts, listed
// in SETTING_DOMAINS), as the loader composes them and as the generated reference (docs/configuration.md) shows them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONFIG_DOCS_FILE, renderConfigDocs, runConfigDocs } from '../../src/app/config-docs';
import { SETTING_DOMAINS, loadConfig } from '../../src/config';
import { configProblems as problems } from '../support/config';

const declared = SETTING_DOMAINS.flatMap((domain) => Object.entries(domain.settings));
const names = declared.map(([name]) => name);
const ofType = (type: string): string[] =>
  declared.filter(([, setting]) => setting.type === type).map(([name]) => name);

describe('declared settings', () => {
  it('declares each of the 141 variables once over all domains', () => {
    expect(names).toHaveLength(141);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((name) => !/^[A-Z][A-Z0-9_]*$/.test(name))).toEqual([]);
  });

  it('describes every variable: a type, a default and a sentence', () => {
    const undescribed = declared.filter(
      ([, setting]) => !setting.type || !setting.defaultText || !/^[A-Z`"].*[.)]$/.test(setting.description),
    );
    expect(undescribed.map(([name]) => name)).toEqual([]);
  });

  it.each(ofType('integer'))('names %s when it is not a whole number or out of its bounds', (name) => {
    expect(problems({ [name]: '1.5' })).toEqual([
      expect.stringMatching(new RegExp(`^${name} must be an integer from `)),
    ]);
    const [found] = problems({ [name]: '-99999999999999999' });
    expect(found).toMatch(new RegExp(`^${name} must be an integer from -?\\d+ to \\d+, got "-99999999999999999"$`));
  });

  it.each(ofType('boolean'))('names %s when it is not on or off', (name) => {
    expect(problems({ [name]: 'Maybe' })).toEqual([`${name} must be true or false (or on/off, 1/0), got "maybe"`]);
  });

  it.each(ofType('one of'))('names %s when it is none of its words', (name) => {
    expect(problems({ [name]: 'nonsense' })).toEqual([
      expect.stringMatching(new RegExp(`^${name} must be one of .*, got "nonsense"$`)),
    ]);
  });

  it.each([
    ['REDIS_URL', 'http://localhost:6379', 'REDIS_URL must be a redis:// or rediss:// URL'],
    ['DATABASE_URL', 'mysql://db/shop', 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [
      'ALLOWED_ORIGINS',
      'https://a.example/x',
      'ALLOWED_ORIGINS must be a comma-separated list of origins such as https://app.example.com (no path or trailing slash), or *, got "https://a.example/x"',
    ],
    ['WORKER_QUEUES', 'a b', 'WORKER_QUEUES must be a comma-separated list of at most 64 queue names, got "a b"'],
    [
      'COUNTER_PRECISIONS',
      '5,5',
      'COUNTER_PRECISIONS must be a comma-separated list of at most 16 distinct whole numbers of seconds from 1 to 31536000, got "5,5"',
    ],
    [
      'ROW_CACHE_KEY',
      '1st',
      'ROW_CACHE_KEY must be a column name of letters, digits, _ and $ not starting with a digit, got "1st"',
    ],
  ])('names %s when it has the wrong shape', (name, value, message) => {
    expect(problems({ [name]: value })).toEqual([message]);
  });

  it('reports each bad LOCATION_DB file', () => {
    expect(problems({ LOCATION_DB: 'a.csv, b.mmdb, /c.txt' })).toEqual([
      `LOCATION_DB must list .mmdb files, got "${path.resolve('a.csv')}"`,
      'LOCATION_DB must list .mmdb files, got "/c.txt"',
    ]);
  });

  it('lists the problems of one start in the order the variables are declared, whatever the order of the environment', () => {
    const integers = ofType('integer');
    const env = Object.fromEntries([...integers].reverse().map((name) => [name, 'x']));
    const found = problems(env);
    expect(found).toHaveLength(integers.length);
    expect(found.map((problem) => problem.split(' ')[0])).toEqual(integers);
  });

  it('counts a blank or spaced value as unset and trims a set one', () => {
    expect(loadConfig({ PORT: '   ', HOST: '' })).toMatchObject({ port: 4000, host: '127.0.0.1' });
    expect(loadConfig({ PORT: ' 4100 ', WEB_APP: ' OFF ' })).toMatchObject({ port: 4100, webApp: { enabled: false } });
  });
});

describe('the configuration reference', () => {
  const rendered = renderConfigDocs();
  const rows = rendered.split('\n').filter((line) => line.startsWith('| `'));

  it('has one row per declared variable, in declaration order, under one section per domain', () => {
    expect(rows.map((row) => /^\| `([A-Z0-9_]+)`/.exec(row)?.[1])).toEqual(names);
    const sections = rendered.split('\n').filter((line) => line.startsWith('## '));
    expect(sections).toEqual(SETTING_DOMAINS.map((domain) => `## ${domain.title}`));
  });

  it('shows type, default, bounds and description of a setting', () => {
    expect(rows).toContain('| `CHAT_MAX_MEMBERS` | integer | `1000` | 2 to 100000 | Most members of one chat. |');
    expect(rows.find((row) => row.startsWith('| `MARKET_STRATEGY`'))).toMatch(
      /^\| `MARKET_STRATEGY` \| one of \| `SCRIPT` \| `SCRIPT`, `WATCH`, `LOCK` \| How listings/,
    );
  });

  it('is committed as the declarations give it (docs/configuration.md)', () => {
    expect(fs.readFileSync(CONFIG_DOCS_FILE, 'utf8')).toBe(rendered);
    expect(runConfigDocs(['--check'])).toEqual({ code: 0, message: expect.stringMatching(/is up to date$/) });
  });

  describe('--check', () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-docs-'));
    });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('fails on a stale or missing file and passes once the file is written', () => {
      const file = path.join(dir, 'configuration.md');
      expect(runConfigDocs(['--check'], file).code).toBe(1);
      fs.writeFileSync(
        file,
        rendered.replace('| `CHAT_MAX_MEMBERS` | integer | `1000` |', '| `CHAT_MAX_MEMBERS` | integer | `500` |'),
      );
      const stale = runConfigDocs(['--check'], file);
      expect(stale).toEqual({
        code: 1,
        message: expect.stringMatching(/is out of date with the declared settings: run `npm run docs:config`/),
      });
      expect(runConfigDocs([], file).code).toBe(0);
      expect(fs.readFileSync(file, 'utf8')).toBe(rendered);
      expect(runConfigDocs(['--check'], file).code).toBe(0);
    });
  });
});
