// GET /metrics (src/metrics, src/transports/metrics.ts): what a scrape shows after real requests,
// WebSocket operations, notifications, Redis commands and tasks; who may scrape it; the listener
// of its own (METRICS=port); and the bound on the operation label.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import manifest from '../../src/generated/client/persisted-documents.json';
import { serverForThisFile } from '../support/fixture';
import { eventually } from '../support/graphql';
import { startTestServer } from '../support/server';

/** The registered text of the operation named `name` (the project manifest). */
function registered(name: string): string {
  const found = Object.values(manifest as Record<string, string>).find((text) =>
    new RegExp(`(query|mutation|subscription) ${name}\\b`).test(text),
  );
  if (!found) throw new Error(`${name} is not in the manifest`);
  return found;
}

type Samples = { name: string; labels: Record<string, string>; value: number }[];

/** The text format's samples (comment lines skipped). */
function parse(text: string): Samples {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

/** The sum of the samples of `name` whose labels include `labels`. */
function total(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value))
    .reduce((sum, s) => sum + s.value, 0);
}

async function get(url: string, token?: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

async function graphql(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  token?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { data?: unknown; errors?: { extensions?: { code?: string } }[] } }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as never };
}

const QUEUE = 'metrics-q';
const fixture = serverForThisFile({ METRICS_QUEUES: QUEUE });

async function scrape(): Promise<Samples> {
  const answer = await get(fixture.api.url.replace(/\/graphql$/, '/metrics'), fixture.api.tokens.service);
  expect(answer.status).toBe(200);
  return parse(answer.text);
}

describe('GET /metrics (METRICS=service, the default)', () => {
  it('refuses a caller without a token (401), a user (403) and a bad token (401); a service caller gets the text format', async () => {
    const url = fixture.api.url.replace(/\/graphql$/, '/metrics');
    const anonymous = await get(url);
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.text).errors[0].extensions.code).toBe('UNAUTHENTICATED');
    const user = await get(url, fixture.api.tokens.user);
    expect(user.status).toBe(403);
    expect(JSON.parse(user.text).errors[0].extensions.code).toBe('FORBIDDEN');
    const forged = await get(url, `${fixture.api.tokens.service}x`);
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.text).errors[0].extensions.code).toBe('UNAUTHENTICATED');

    const service = await get(url, fixture.api.tokens.service);
    expect(service.status).toBe(200);
    expect(service.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parse(service.text);
    // Node's own metrics, and the refusals above counted like any request.
    expect(total(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(total(samples, 'ria_http_requests_total', { route: 'metrics', code: 'UNAUTHENTICATED' })).toBe(2);
    expect(total(samples, 'ria_http_requests_total', { route: 'metrics', code: 'FORBIDDEN' })).toBe(1);
  });

  it('counts requests by registered operation and outcome code on both HTTP paths, with their latency', async () => {
    const { url, tokens } = fixture.api;
    const before = await scrape();
    const update = registered('UpdateCounter');
    expect((await graphql(url, update, { name: 'metrics-a' }, tokens.service)).body.errors).toBeUndefined();
    // Through express (a browser's Origin) and Apollo, rather than the fast path.
    const viaExpress = await graphql(url, update, { name: 'metrics-a' }, tokens.service, {
      origin: new URL(url).origin,
    });
    expect(viaExpress.body.errors).toBeUndefined();
    const refused = await graphql(url, update, { name: '' }, tokens.service);
    expect(refused.body.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    const forbidden = await graphql(url, registered('QueueStats'), { name: QUEUE }, tokens.user);
    expect(forbidden.body.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    // An unregistered document is never named by what it calls itself.
    await graphql(url, 'query MadeUpName { __typename }', {}, tokens.user);
    // A bad token is refused by the gate before any document is read.
    expect((await graphql(url, update, { name: 'metrics-a' }, `${tokens.service}x`)).status).toBe(401);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      total(after, name, labels) - total(before, name, labels);
    const requests = 'ria_http_requests_total';
    expect(moved(requests, { route: 'graphql', operation: 'UpdateCounter', code: 'ok' })).toBe(2);
    expect(moved(requests, { route: 'graphql', operation: 'UpdateCounter', code: 'BAD_USER_INPUT' })).toBe(1);
    expect(moved(requests, { route: 'graphql', operation: 'QueueStats', code: 'FORBIDDEN' })).toBe(1);
    expect(moved(requests, { route: 'graphql', operation: 'unregistered', code: 'ok' })).toBe(1);
    expect(moved(requests, { route: 'graphql', operation: 'none', code: 'UNAUTHENTICATED' })).toBe(1);
    expect(after.some((s) => s.labels.operation === 'MadeUpName')).toBe(false);
    const latency = { route: 'graphql', operation: 'UpdateCounter' };
    expect(moved('ria_http_request_duration_seconds_count', latency)).toBe(3);
    expect(moved('ria_http_request_duration_seconds_bucket', { ...latency, le: '+Inf' })).toBe(3);
    expect(moved('ria_http_request_duration_seconds_sum', latency)).toBeGreaterThan(0);
    // Each update ran its script once: the Redis command histogram names scripts by file.
    expect(moved('ria_redis_command_duration_seconds_count', { command: 'script:counter-update' })).toBe(2);
    expect(total(after, 'ria_redis_command_errors_total')).toBe(0);
  });

  it('shows a WebSocket subscription while it runs, and counts it and its notifications once it ends', async () => {
    const { url, tokens } = fixture.api;
    const before = await scrape();
    const { client } = fixture.connect(tokens.user);
    const seen: unknown[] = [];
    const stop = client.subscribe(
      { query: registered('CounterUpdated'), variables: { name: 'metrics-ws' } },
      { next: (value) => void seen.push(value), error: () => undefined, complete: () => undefined },
    );
    await eventually(async () => total(await scrape(), 'ria_ws_subscriptions_active') === 1);
    expect(total(await scrape(), 'ria_ws_sockets_open')).toBe(1);
    // The first notice may be sent before Redis has the subscriber: update until one arrives.
    await eventually(async () => {
      await graphql(url, registered('UpdateCounter'), { name: 'metrics-ws' }, tokens.service);
      return seen.length > 0;
    });
    stop();
    await eventually(async () => total(await scrape(), 'ria_ws_subscriptions_active') === 0);

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      total(after, name, labels) - total(before, name, labels);
    expect(moved('ria_ws_operations_total', { operation: 'CounterUpdated', code: 'ok' })).toBe(1);
    expect(moved('ria_ws_connections_total')).toBe(1);
    expect(moved('ria_notifications_received_total', { topic: 'COUNTER_UPDATED' })).toBeGreaterThanOrEqual(seen.length);
    expect(moved('ria_notifications_delivered_total', { topic: 'COUNTER_UPDATED' })).toBeGreaterThanOrEqual(
      seen.length,
    );
  });

  it('counts a WebSocket query with its latency, and a refused operation with its code', async () => {
    const { tokens } = fixture.api;
    const before = await scrape();
    const { client } = fixture.connect(tokens.user);
    const run = (query: string, variables: Record<string, unknown>) =>
      new Promise<unknown>((resolve) => {
        client.subscribe(
          { query, variables },
          { next: () => undefined, error: resolve, complete: () => resolve(null) },
        );
      });
    expect(await run(registered('RecentContacts'), {})).toBeNull();
    await run(registered('QueueStats'), { name: QUEUE });
    await run('query { nope }', {});

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      total(after, name, labels) - total(before, name, labels);
    expect(moved('ria_ws_operations_total', { operation: 'RecentContacts', code: 'ok' })).toBe(1);
    expect(moved('ria_ws_operation_duration_seconds_count', { operation: 'RecentContacts' })).toBe(1);
    expect(moved('ria_ws_operations_total', { operation: 'QueueStats', code: 'FORBIDDEN' })).toBe(1);
    expect(moved('ria_ws_operations_total', { operation: 'unregistered', code: 'GRAPHQL_VALIDATION_FAILED' })).toBe(1);
  });

  it('counts WebSockets closed by their close code', async () => {
    const before = await scrape();
    const refused = fixture.connect(`${fixture.api.tokens.user}x`);
    expect(await refused.closed).toBe(4403);
    const code = { code: '4403' };
    await eventually(
      async () => total(await scrape(), 'ria_ws_closes_total', code) - total(before, 'ria_ws_closes_total', code) === 1,
    );
  });

  it('counts the notifications this process publishes by topic', async () => {
    const { url, tokens } = fixture.api;
    const before = await scrape();
    const sent = await graphql(url, registered('SendDirectMessage'), { to: 'bob', message: 'hi' }, tokens.user);
    expect(sent.body.errors).toBeUndefined();
    const after = await scrape();
    const topic = { topic: 'INBOX_CHANGED' };
    expect(
      total(after, 'ria_notifications_published_total', topic) -
        total(before, 'ria_notifications_published_total', topic),
    ).toBe(1);
  });

  it('reads the depth and lag of the queues it was told of at each scrape', async () => {
    const { url, tokens } = fixture.api;
    const enqueue = (delayMs: number) =>
      graphql(url, registered('EnqueueTask'), { queue: QUEUE, name: 'job', delayMs }, tokens.service);
    for (const delayMs of [0, 0, 60_000]) expect((await enqueue(delayMs)).body.errors).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 30));
    const samples = await scrape();
    const tasks = (state: string) => total(samples, 'ria_task_queue_tasks', { queue: QUEUE, state });
    expect([tasks('waiting'), tasks('delayed'), tasks('active')]).toEqual([2, 1, 0]);
    const lag = total(samples, 'ria_task_queue_lag_seconds', { queue: QUEUE });
    expect(lag).toBeGreaterThan(0.02);
    expect(lag).toBeLessThan(30);
    expect(total(samples, 'ria_task_queue_paused', { queue: QUEUE })).toBe(0);
    // Only the queues named in the configuration.
    expect(samples.filter((s) => s.name === 'ria_task_queue_tasks').every((s) => s.labels.queue === QUEUE)).toBe(true);
  });

  it('counts the location lines this process stores and its aggregator counts', async () => {
    const { url, tokens } = fixture.api;
    const before = await scrape();
    await graphql(url, registered('CreateLocationDataset'), { name: 'metrics' }, tokens.service);
    const append = registered('AppendLocationLines');
    const lines = ['8.8.8.8 2011-10-10 10:00:00 a', '8.8.4.4 2011-10-10 10:00:01 b'];
    const variables = { dataset: 'metrics', upload: 'u', fromLine: 0, lines, complete: true };
    expect((await graphql(url, append, variables, tokens.service)).body.errors).toBeUndefined();
    // The same lines again: recognised as stored, not stored twice.
    expect((await graphql(url, append, variables, tokens.service)).body.errors).toBeUndefined();
    const moved = (samples: Samples, name: string, labels: Record<string, string> = {}) =>
      total(samples, name, labels) - total(before, name, labels);
    await eventually(async () => moved(await scrape(), 'ria_location_chunks_aggregated_total') === 1);
    const after = await scrape();
    expect(moved(after, 'ria_location_appends_total', { outcome: 'ok' })).toBe(1);
    expect(moved(after, 'ria_location_appends_total', { outcome: 'stored' })).toBe(1);
    expect(moved(after, 'ria_location_lines_appended_total')).toBe(2);
    expect(moved(after, 'ria_location_lines_aggregated_total')).toBe(2);
    expect(total(after, 'ria_location_chunks_waiting')).toBe(0);
  });
});

describe('METRICS=port and METRICS=off', () => {
  it('serves /metrics without auth on a listener of its own, not on the API port, and closes it on stop', async () => {
    // No aggregator here: what is stored stays waiting.
    const api = await startTestServer({ METRICS: 'port', METRICS_PORT: '0', LOCATION_WORKER: 'off' });
    let stopped = false;
    try {
      const metricsUrl = api.server.metricsUrl!;
      expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(new URL(metricsUrl).port).not.toBe(String(api.server.port));
      await graphql(api.url, registered('UpdateCounter'), { name: 'metrics-port' }, api.tokens.service);
      const answer = await get(metricsUrl);
      expect(answer.status).toBe(200);
      expect(total(parse(answer.text), 'ria_http_requests_total', { operation: 'UpdateCounter', code: 'ok' })).toBe(1);
      await graphql(api.url, registered('CreateLocationDataset'), { name: 'waiting' }, api.tokens.service);
      const lines = {
        dataset: 'waiting',
        upload: 'u',
        fromLine: 0,
        lines: ['8.8.8.8 2011-10-10 10:00:00 a'],
        complete: true,
      };
      await graphql(api.url, registered('AppendLocationLines'), lines, api.tokens.service);
      const waiting = parse((await get(metricsUrl)).text);
      expect(total(waiting, 'ria_location_chunks_waiting')).toBe(1);
      expect(total(waiting, 'ria_location_bytes_waiting')).toBeGreaterThan(20);
      expect((await get(api.url.replace(/\/graphql$/, '/metrics'), api.tokens.service)).status).toBe(404);
      await api.stop();
      stopped = true;
      await expect(fetch(metricsUrl)).rejects.toThrow();
    } finally {
      if (!stopped) await api.stop();
    }
  });

  it('serves nothing with METRICS=off', async () => {
    const api = await startTestServer({ METRICS: 'off' });
    try {
      expect(api.server.metricsUrl).toBeUndefined();
      expect((await get(api.url.replace(/\/graphql$/, '/metrics'), api.tokens.service)).status).toBe(404);
    } finally {
      await api.stop();
    }
  });
});

describe('label bounds', () => {
  it('names at most 200 registered operations (the rest are "other") and no unregistered one', async () => {
    const texts = Array.from({ length: 210 }, (_, i) => `query Registered${i} { __typename }`);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ria-metrics-')), 'documents.json');
    fs.writeFileSync(
      file,
      JSON.stringify(Object.fromEntries(texts.map((text) => [createHash('sha256').update(text).digest('hex'), text]))),
    );
    const api = await startTestServer({ TRUSTED_DOCUMENTS_FILE: file });
    try {
      for (const text of texts) await graphql(api.url, text, {}, api.tokens.user);
      for (let i = 0; i < 300; i++)
        await graphql(api.url, `query Unregistered${i} { __typename }`, {}, api.tokens.user);
      const answer = await get(api.url.replace(/\/graphql$/, '/metrics'), api.tokens.service);
      const requests = parse(answer.text).filter(
        (s) => s.name === 'ria_http_requests_total' && s.labels.route === 'graphql',
      );
      const operations = new Set(requests.map((s) => s.labels.operation));
      expect(operations.size).toBe(202);
      expect(operations.has('other')).toBe(true);
      expect(operations.has('unregistered')).toBe(true);
      expect(total(parse(answer.text), 'ria_http_requests_total', { operation: 'other' })).toBe(10);
      expect(total(parse(answer.text), 'ria_http_requests_total', { operation: 'unregistered' })).toBe(300);
    } finally {
      await api.stop();
    }
  });
});
