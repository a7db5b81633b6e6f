// `npm run logs:generate -- --lines N --out FILE[.gz] [--files K] [--seed S]`: writes
// deterministic log lines (see geo/log-generator.ts) to K files, gzipped when the name ends in
// .gz, and beside them FILE.reference.json: the visits per day and country counted as they were
// written, to check what the product reports against.
import fs from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { lazyLocator } from '../geo/ip-locator';
import { DEFAULT_GENERATOR, LogGenerator } from '../geo/log-generator';
import { ProgressLine } from './progress';

const USAGE = 'usage: npm run logs:generate -- --lines N --out FILE[.gz] [--files K] [--seed S] [--places P]';
const BATCH = 10_000;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      lines: { type: 'string' },
      out: { type: 'string' },
      files: { type: 'string', default: '1' },
      seed: { type: 'string', default: '1' },
      places: { type: 'string', default: String(DEFAULT_GENERATOR.places) },
    },
  });
  const lines = Number(values.lines);
  const files = Number(values.files);
  if (!values.out || !Number.isSafeInteger(lines) || lines < 1 || !Number.isSafeInteger(files) || files < 1) {
    console.error(USAGE);
    process.exit(2);
  }
  const generator = new LogGenerator(lazyLocator(process.env.LOCATION_DB ? process.env.LOCATION_DB.split(',') : [])(), {
    ...DEFAULT_GENERATOR,
    seed: Number(values.seed),
    places: Number(values.places),
  });
  const bar = new ProgressLine();
  const out = values.out;
  const names: string[] = [];
  let written = 0;
  for (let index = 0; index < files; index++) {
    const name =
      files === 1 ? out : out.replace(/(\.log)?(\.gz)?$/, (_, log = '', gz = '') => `-${index + 1}${log}${gz}`);
    names.push(name);
    const file = fs.createWriteStream(name);
    const sink = name.endsWith('.gz') ? zlib.createGzip({ level: 6 }) : undefined;
    sink?.pipe(file);
    const target = sink ?? file;
    const share = Math.floor(lines / files) + (index < lines % files ? 1 : 0);
    for (let done = 0; done < share; done += BATCH) {
      const batch = generator.lines(Math.min(BATCH, share - done));
      if (!target.write(batch.join('\n') + '\n')) await once(target, 'drain');
      written += batch.length;
      bar.show(written, lines, `${written.toLocaleString('en')} lines`);
    }
    target.end();
    await once(file, 'finish');
  }
  bar.end();
  const reference = generator.reference;
  const days = [...reference.visits.keys()].sort();
  const summary = {
    files: names,
    lines: reference.lines,
    refused: reference.refused,
    days: Object.fromEntries(
      days.map((day) => [day, { visits: reference.visits.get(day), countries: reference.top(day) }]),
    ),
  };
  const referenceFile = `${out.replace(/(\.log)?(\.gz)?$/, '')}.reference.json`;
  fs.writeFileSync(referenceFile, JSON.stringify(summary, null, 2));
  console.error(
    `wrote ${names.join(', ')} (${lines.toLocaleString('en')} lines over ${days.length} days) and ${referenceFile}`,
  );
}

main().catch((error: unknown) => {
  console.error(`logs:generate failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
