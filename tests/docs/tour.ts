// The README's five-minute tour as data: each step's caller, operation, variables and the answer
// it shows, read straight from README.md so that the tour test sends exactly what readers paste.
import { readMarkdown, ROOT } from './markdown';

export interface TourStep {
  title: string;
  line: number;
  caller: 'user' | 'service';
  query: string;
  variables: Record<string, unknown>;
  answer: unknown;
}

const TOUR_HEADING = 'A five-minute tour';

export function readTour(file = 'README.md', root = ROOT): TourStep[] {
  const page = readMarkdown(file, root);
  const start = page.headings.find((heading) => heading.level === 2 && heading.text === TOUR_HEADING);
  if (!start) throw new Error(`${file}: no "## ${TOUR_HEADING}"`);
  const end = page.headings.find((heading) => heading.level <= 2 && heading.line > start.line)?.line ?? Infinity;
  const steps = page.headings.filter(
    (heading) => heading.level === 3 && heading.line > start.line && heading.line < end,
  );
  return steps.map((step, index) => {
    const until = steps[index + 1]?.line ?? end;
    const fences = page.fences.filter((fence) => fence.line > step.line && fence.line < until);
    const where = `${file}:${step.line} (${step.text})`;
    const shape = fences.map((fence) => fence.lang).join(',');
    if (shape !== 'graphql,json,json') throw new Error(`${where}: fences ${shape}, not graphql,json,json`);
    const [operation, variables, answer] = fences;
    // The caller is named in the step's prose, where the reader sees it: "With the user token, ...".
    const prose = page.lines.slice(step.line, operation.line - 1).join(' ');
    const callers = [...prose.matchAll(/\bwith the (user|service) token\b/gi)].map((match) => match[1].toLowerCase());
    const caller = callers[0];
    if (callers.length !== 1 || (caller !== 'user' && caller !== 'service')) {
      throw new Error(`${where}: the step must say once "With the user token" or "With the service token"`);
    }
    return {
      title: step.text,
      line: step.line,
      caller,
      query: operation.body,
      variables: JSON.parse(variables.body) as Record<string, unknown>,
      answer: JSON.parse(answer.body) as unknown,
    };
  });
}

/**
 * Where `actual` differs in shape from `shown`: the same keys at every level, the same JSON types,
 * lists empty or not alike, each item shaped like the first one shown. Values are not compared:
 * ids, tokens and times differ from run to run.
 */
export function shapeDifferences(shown: unknown, actual: unknown, at = '$'): string[] {
  const kind = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  if (kind(shown) !== kind(actual)) return [`${at}: ${kind(actual)} where the tour shows ${kind(shown)}`];
  if (Array.isArray(shown) && Array.isArray(actual)) {
    if ((shown.length === 0) !== (actual.length === 0)) {
      return [`${at}: ${actual.length} items where the tour shows ${shown.length}`];
    }
    return actual.flatMap((item, index) => shapeDifferences(shown[0], item, `${at}[${index}]`));
  }
  if (kind(shown) === 'object') {
    const want = shown as Record<string, unknown>;
    const got = actual as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(want), ...Object.keys(got)])];
    return keys.flatMap((key) => {
      if (!(key in got)) return [`${at}.${key}: missing from the answer`];
      if (!(key in want)) return [`${at}.${key}: in the answer, not in the tour`];
      return shapeDifferences(want[key], got[key], `${at}.${key}`);
    });
  }
  return [];
}
