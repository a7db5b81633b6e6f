// A semaphore holder as a separate process, for tests/faults-frozen-holder.test.ts: it takes a
// slot through the HTTP API, then in a loop writes to a fenced resource with its fencing token and
// refreshes the slot, pausing in between. When a refresh says the slot was lost it releases (which
// should be refused too) and exits. Each step is printed as one JSON line on stdout.
// Environment: API_URL, API_TOKEN (a service JWT), RESOURCE_URL, NAME, TIMEOUT_MS, PAUSE_MS.
const { API_URL, API_TOKEN, RESOURCE_URL, NAME } = process.env;
const TIMEOUT_MS = Number(process.env.TIMEOUT_MS);
const PAUSE_MS = Number(process.env.PAUSE_MS);

const say = (line) => process.stdout.write(`${JSON.stringify({ ...line, at: Date.now() })}\n`);

async function graphql(query, variables) {
  const response = await fetch(API_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${API_TOKEN}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

async function main() {
  const { acquireSemaphore: lease } = await graphql(
    'mutation ($name: String!, $timeoutMs: Int) { acquireSemaphore(name: $name, limit: 1, timeoutMs: $timeoutMs) { id fencingToken expiresAt } }',
    { name: NAME, timeoutMs: TIMEOUT_MS },
  );
  if (!lease) {
    say({ event: 'not-acquired' });
    return;
  }
  say({ event: 'acquired', id: lease.id, fencingToken: lease.fencingToken, expiresAt: lease.expiresAt });

  for (let seq = 1; ; seq++) {
    // The protected work: the resource decides by the fencing token whether to take it.
    const write = await fetch(RESOURCE_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ writer: 'holder', fencingToken: lease.fencingToken, seq }),
    });
    say({ event: 'write', seq, accepted: write.status === 200, ...(await write.json()) });

    const { refreshSemaphore: refreshed } = await graphql(
      'mutation ($name: String!, $id: String!) { refreshSemaphore(name: $name, id: $id) { fencingToken expiresAt } }',
      { name: NAME, id: lease.id },
    );
    say({ event: 'refresh', seq, ok: refreshed !== null, ...(refreshed ?? {}) });
    if (!refreshed) {
      const { releaseSemaphore: released } = await graphql(
        'mutation ($name: String!, $id: String!) { releaseSemaphore(name: $name, id: $id) }',
        {
          name: NAME,
          id: lease.id,
        },
      );
      say({ event: 'release', released });
      say({ event: 'stopped' });
      return;
    }
    // Printed just before the pause, so a test knows where this process is when it freezes it.
    say({ event: 'idle', seq });
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  }
}

main().catch((error) => {
  say({ event: 'error', message: error.message });
  process.exitCode = 1;
});
