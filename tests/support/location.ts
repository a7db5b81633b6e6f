// Sending generated log lines straight to a location repository, as the HTTP upload does: cut
// into chunks at line ends, each appended from the line the upload holds. After a failure (Redis
// restarting) it asks the server where the upload stands and goes on from there, as the
// command-line sender does, so every line is stored exactly once.
import { setTimeout as sleep } from 'node:timers/promises';
import { LineChunker } from '../../src/geo/chunker';
import type { LocationRepository } from '../../src/redis/location/repository';

export async function sendLines(
  repository: LocationRepository,
  dataset: string,
  upload: string,
  lines: string[],
  chunkBytes: number,
): Promise<number> {
  const text = Buffer.from(lines.join('\n') + '\n');
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const stored = (await repository.upload(dataset, upload))?.lines ?? 0;
      let at = 0;
      for (let i = 0; i < stored; i++) at = text.indexOf(10, at) + 1;
      const chunker = new LineChunker(chunkBytes);
      const chunks = [...chunker.push(text.subarray(at)), ...chunker.end()];
      let from = stored;
      if (chunks.length === 0) return (await repository.append(dataset, upload, from, undefined, true)).lines;
      for (const [i, chunk] of chunks.entries()) {
        for (;;) {
          const result = await repository.append(dataset, upload, from, chunk, i === chunks.length - 1);
          if (result.status !== 'FULL') {
            from = result.lines;
            break;
          }
          await sleep(20);
        }
      }
      return from;
    } catch {
      await sleep(200);
    }
  }
  throw new Error('could not send the lines in 100 attempts');
}
