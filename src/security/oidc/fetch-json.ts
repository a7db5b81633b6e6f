// A provider's discovery document or key set, fetched with bounds: a slow provider is cut off at the
// timeout, a huge answer at MAX_BYTES (read as it streams, not trusted from content-length), and a
// redirect is refused rather than followed to wherever it points.

/** Larger than any real key set (a few keys of a few hundred bytes each). */
const MAX_BYTES = 256 * 1024;

export class FetchProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FetchProblem';
  }
}

export async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'error', headers: { accept: 'application/json' } });
  } catch (error) {
    throw new FetchProblem(signal.aborted ? `no answer within ${timeoutMs} ms` : `unreachable (${reason(error)})`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new FetchProblem(`answered HTTP ${response.status}`);
  }
  const text = await readBounded(response, signal, timeoutMs);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new FetchProblem('answered something that is not JSON');
  }
}

async function readBounded(response: Response, signal: AbortSignal, timeoutMs: number): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.byteLength;
      if (bytes > MAX_BYTES) {
        await response.body.cancel().catch(() => undefined);
        throw new FetchProblem(`answered more than ${MAX_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof FetchProblem) throw error;
    throw new FetchProblem(
      signal.aborted ? `no whole answer within ${timeoutMs} ms` : `answer cut off (${reason(error)})`,
    );
  }
  return Buffer.concat(chunks).toString('utf8');
}

function reason(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}
