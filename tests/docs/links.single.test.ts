// Every relative link in README.md and docs/ leads to a file that exists, and every #anchor to a
// heading of that file, so moving or renaming a page or a heading cannot leave readers stranded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { anchors, documentationFiles, readMarkdown, ROOT, slug, type MarkdownFile } from './markdown';

/**
 * Pages a generator writes (the configuration reference, from the settings' declarations). A link
 * to one is followed when the page is there; before its generator has run, its anchors cannot be
 * checked and the link is taken on trust.
 */
const GENERATED = new Set(['docs/configuration.md']);

function brokenLinks(page: MarkdownFile, root = ROOT): string[] {
  const problems: string[] = [];
  for (const { line, target } of page.links) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [file, anchor] = target.split('#', 2) as [string, string | undefined];
    const resolved =
      file === '' ? page.file : path.posix.normalize(path.posix.join(path.posix.dirname(page.file), file));
    const where = `${page.file}:${line}: ${target}`;
    if (resolved.startsWith('..')) {
      problems.push(`${where}: outside the project`);
      continue;
    }
    if (!fs.existsSync(path.join(root, resolved))) {
      if (!GENERATED.has(resolved)) problems.push(`${where}: no file ${resolved}`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith('.md')) {
      problems.push(`${where}: an anchor into a file that is not Markdown`);
      continue;
    }
    if (!anchors(readMarkdown(resolved, root).headings).includes(decodeURIComponent(anchor))) {
      problems.push(`${where}: no heading #${anchor} in ${resolved}`);
    }
  }
  return problems;
}

describe('links in the documentation', () => {
  const pages = documentationFiles().map((file) => readMarkdown(file));

  it('lead to files and headings that exist', () => {
    expect(pages.flatMap((page) => brokenLinks(page))).toEqual([]);
  });

  it('reach every page under docs/ from the README, directly or through another page', () => {
    const reached = new Set(['README.md']);
    const queue = ['README.md'];
    const byFile = new Map(pages.map((page) => [page.file, page]));
    while (queue.length > 0) {
      const page = byFile.get(queue.shift()!)!;
      for (const { target } of page.links) {
        const file = target.split('#')[0];
        if (file === '' || /^[a-z][a-z0-9+.-]*:/i.test(file) || !file.endsWith('.md')) continue;
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(page.file), file));
        if (!reached.has(resolved) && byFile.has(resolved)) {
          reached.add(resolved);
          queue.push(resolved);
        }
      }
    }
    expect(pages.map((page) => page.file).filter((file) => !reached.has(file))).toEqual([]);
  });

  it('turns headings into the anchors GitHub makes', () => {
    expect(slug('Locks and semaphores (service callers)')).toBe('locks-and-semaphores-service-callers');
    expect(slug('The GraphQL path, step by step (issue 23)')).toBe('the-graphql-path-step-by-step-issue-23');
    expect(slug('`REDIS_WAIT_REPLICAS`: acknowledge what a replica has')).toBe(
      'redis_wait_replicas-acknowledge-what-a-replica-has',
    );
    expect(slug('What Redis keeps, and where it levels off')).toBe('what-redis-keeps-and-where-it-levels-off');
    expect(anchors([1, 2, 3].map((line) => ({ line, level: 2, text: 'Keys' })))).toEqual(['keys', 'keys-1', 'keys-2']);
  });

  it('finds a missing file and a missing heading, and ignores links in code', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ria-links-'));
    try {
      fs.mkdirSync(path.join(root, 'docs'));
      fs.writeFileSync(path.join(root, 'README.md'), '# Front\n\n## A five-minute tour\n');
      fs.writeFileSync(
        path.join(root, 'docs', 'page.md'),
        [
          '# Page',
          '## Second part',
          'See [the part](#second-part), [nowhere](#third-part), [gone](missing.md),',
          '[the tour](../README.md#a-five-minute-tour), [no tour](../README.md#tour) and `[code](not-a-link.md)`.',
          '```md',
          '[in a fence](also-not.md)',
          '```',
        ].join('\n'),
      );
      expect(brokenLinks(readMarkdown('docs/page.md', root), root)).toEqual([
        'docs/page.md:3: #third-part: no heading #third-part in docs/page.md',
        'docs/page.md:3: missing.md: no file docs/missing.md',
        'docs/page.md:4: ../README.md#tour: no heading #tour in README.md',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
