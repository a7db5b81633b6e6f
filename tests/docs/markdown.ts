// Reads the project's Markdown as the docs tests need it: fenced blocks (with the HTML comment that
// may precede one), headings as GitHub turns them into anchors, and relative links. A small reader
// of our own, because the docs use a narrow part of CommonMark and a full parser would be a new
// dependency for three questions.
import fs from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');

export interface Fence {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word: `graphql`, `json`, `sh`. */
  lang: string;
  body: string;
  /** The text of an HTML comment on the last non-blank line before the fence, if there is one. */
  comment?: string;
}

export interface Heading {
  line: number;
  level: number;
  text: string;
}

interface Link {
  line: number;
  target: string;
}

export interface MarkdownFile {
  /** Path relative to the project root, with `/`. */
  file: string;
  lines: string[];
  fences: Fence[];
  headings: Heading[];
  links: Link[];
}

const FENCE_OPEN = /^(\s*)(`{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const COMMENT = /^\s*<!--\s*(.*?)\s*-->\s*$/;
// [text](target) and ![alt](target); a target ends at whitespace or the closing parenthesis.
const LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

export function readMarkdown(relative: string, root = ROOT): MarkdownFile {
  const lines = fs.readFileSync(path.join(root, relative), 'utf8').split('\n');
  const fences: Fence[] = [];
  const headings: Heading[] = [];
  const links: Link[] = [];
  let open: { line: number; indent: number; ticks: number; lang: string; comment?: string; body: string[] } | undefined;
  let lastText: string | undefined;
  lines.forEach((text, index) => {
    const line = index + 1;
    if (open) {
      const close = /^\s*(`{3,})\s*$/.exec(text);
      if (close && close[1].length >= open.ticks) {
        fences.push({
          file: relative,
          line: open.line,
          lang: open.lang,
          body: open.body.join('\n'),
          comment: open.comment,
        });
        open = undefined;
        lastText = text;
      } else {
        // Content indented like its fence (inside a list item) loses that indentation.
        const indent = /^\s*/.exec(text)![0].length;
        open.body.push(text.slice(Math.min(indent, open.indent)));
      }
      return;
    }
    const opening = FENCE_OPEN.exec(text);
    if (opening) {
      const comment = lastText === undefined ? undefined : COMMENT.exec(lastText)?.[1];
      open = { line, indent: opening[1].length, ticks: opening[2].length, lang: opening[3], comment, body: [] };
      return;
    }
    const heading = HEADING.exec(text);
    if (heading) headings.push({ line, level: heading[1].length, text: heading[2] });
    // Inline code is not a link, whatever it holds.
    const prose = text.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(LINK)) links.push({ line, target: match[1] });
    if (text.trim() !== '') lastText = text;
  });
  if (open) throw new Error(`${relative}:${open.line}: a fence that is never closed`);
  return { file: relative, lines, fences, headings, links };
}

/** The anchors GitHub gives a file's headings, in order, with `-1`, `-2` for repeats. */
export function anchors(headings: readonly Heading[]): string[] {
  const seen = new Map<string, number>();
  return headings.map(({ text }) => {
    const base = slug(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  });
}

/** GitHub's heading anchor: the visible text, lower case, punctuation dropped, spaces as `-`. */
export function slug(heading: string): string {
  const visible = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*]/g, '');
  return visible
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** README.md and every Markdown file under docs/, relative to the root. */
export function documentationFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
      .flatMap((entry) =>
        entry.isDirectory() ? walk(`${dir}/${entry.name}`) : entry.name.endsWith('.md') ? [`${dir}/${entry.name}`] : [],
      );
  return ['README.md', ...walk('docs')].sort();
}
