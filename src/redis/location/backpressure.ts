// Backpressure for senders: when a dataset holds LOCATION_MAX_HELD_BYTES of chunks not yet
// counted, a new chunk waits for room instead of being refused or growing Redis. The HTTP
// upload stops reading its socket meanwhile, so TCP slows the sender down too.
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../common/errors';
import type { AppendResult, LocationRepository } from './repository';

const FIRST_WAIT_MS = 25;
const LONGEST_WAIT_MS = 500;

/** Room did not come in time: the sender retries later from `lines`. */
const noRoom = (lines: number, waitedMs: number): AppError =>
  new AppError(
    'RATE_LIMITED',
    `The dataset holds as many bytes as LOCATION_MAX_HELD_BYTES allows and no aggregator made room within ${waitedMs} ms; send again from line ${lines}`,
    { retryAfterMs: 1000, lines },
  );

export async function appendWhenRoom(
  repository: LocationRepository,
  request: Parameters<LocationRepository['append']>,
  maxWaitMs: number,
  signal?: AbortSignal,
): Promise<AppendResult> {
  const started = Date.now();
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    const result = await repository.append(...request);
    if (result.status !== 'FULL') return result;
    const waited = Date.now() - started;
    if (waited >= maxWaitMs || signal?.aborted) throw noRoom(result.lines, waited);
    await sleep(Math.min(wait, maxWaitMs - waited), undefined, signal ? { signal } : {}).catch(() => undefined);
  }
}
