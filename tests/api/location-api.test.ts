// Location analytics through the real server: IP lookups, datasets, log files streamed over
// HTTP (plain, gzip, cut off and resumed, too large, a gzip bomb), live lines over GraphQL, the
// aggregator inside the API process, reads by day and place against a count made independently,
// notifications over WebSocket, and who may do what.
import http from 'node:http';
import zlib from 'node:zlib';
import {
  AppendLocationLinesDocument,
  CreateLocationDatasetDocument,
  ForgetLocationDaysDocument,
  IpLocationDocument,
  LocationDaysDocument,
  LocationTotalsChangedDocument,
  LocationTotalsDocument,
  LocationUploadChangedDocument,
  LocationUploadDocument,
  PlaceVisitsDocument,
  TopCitiesDocument,
  TopCountriesDocument,
  TopRegionsDocument,
} from '../../src/generated/client/graphql';
import { serverForThisFile } from '../support/fixture';
import { codes, eventually, post, wsOperation } from '../support/graphql';
import { startTestServer, type TestServer } from '../support/server';
import { lazyLocator } from '../../src/geo/ip-locator';
import { DEFAULT_GENERATOR, LogGenerator } from '../../src/geo/log-generator';
import { locationKeys } from '../../src/redis/keys';
import { print } from 'graphql';

const MAX_UPLOAD = 4 * 1024 * 1024;
const fixture = serverForThisFile({
  LOCATION_CHUNK_BYTES: String(64 * 1024),
  LOCATION_MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
  LOCATION_MAX_APPEND_LINES: '100',
});
let api: TestServer;
const locator = lazyLocator([]);

beforeAll(() => {
  api = fixture.api;
});

const logsUrl = (dataset: string, upload: string, query = ''): string =>
  api.url.replace(/\/graphql$/, `/logs/${encodeURIComponent(dataset)}/${encodeURIComponent(upload)}${query}`);

async function sendFile(
  dataset: string,
  upload: string,
  body: Buffer,
  options: { token?: string | undefined; query?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const token = 'token' in options ? options.token : api.tokens.service;
  const response = await fetch(logsUrl(dataset, upload, options.query), {
    method: 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...options.headers },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function createDataset(name: string): Promise<void> {
  const result = await post(api.url, CreateLocationDatasetDocument, { name }, api.tokens.service);
  expect(result.data?.createLocationDataset).toBe(true);
}

async function progress(dataset: string, upload: string) {
  const result = await post(api.url, LocationUploadDocument, { dataset, upload }, api.tokens.service);
  expect(result.errors).toBeUndefined();
  return result.data!.locationUpload;
}

async function counted(dataset: string, upload: string): Promise<void> {
  await eventually(async () => (await progress(dataset, upload))?.done === true, 20_000, 50);
}

describe('ipLocation', () => {
  it('finds IPv4 and IPv6 addresses, null for one in no range, and refuses what is not an address', async () => {
    const lookup = async (ip: string) => post(api.url, IpLocationDocument, { ip }, api.tokens.user);
    expect((await lookup('173.194.38.137')).data?.ipLocation).toEqual({
      country: 'US',
      region: 'California',
      city: 'Mountain View',
    });
    expect((await lookup('2001:4860:4860::8888')).data?.ipLocation).toEqual({
      country: 'CA',
      region: 'Quebec',
      city: 'Montreal',
    });
    expect((await lookup('10.0.0.1')).data?.ipLocation).toBeNull();
    // An IPv4 client as dual-stack servers log it.
    expect((await lookup('::ffff:173.194.38.137')).data?.ipLocation).toEqual({
      country: 'US',
      region: 'California',
      city: 'Mountain View',
    });
    expect(codes(await lookup('999.0.0.1'))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await lookup('fe80::1%eth0'))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await post(api.url, IpLocationDocument, { ip: '8.8.8.8' }, undefined))).toEqual(['UNAUTHENTICATED']);
  });

  it('keeps Unicode place names, in lookups and in counts', async () => {
    // In the pinned DB-IP Lite release this address is in Nu‘ayjah (with U+2018), Qatar.
    const place = { country: 'QA', region: 'Baladiyat ad Dawhah', city: 'Nu\u2018ayjah' };
    const result = await post(api.url, IpLocationDocument, { ip: '37.211.214.250' }, api.tokens.user);
    expect(result.data?.ipLocation).toEqual(place);
    await createDataset('unicode');
    const appended = await post(
      api.url,
      AppendLocationLinesDocument,
      { dataset: 'unicode', upload: 'u', fromLine: 0, lines: ['37.211.214.250 2011-10-10 10:00:00 a'], complete: true },
      api.tokens.service,
    );
    expect(appended.errors).toBeUndefined();
    await counted('unicode', 'u');
    const cities = await post(
      api.url,
      TopCitiesDocument,
      { dataset: 'unicode', country: 'QA', region: place.region, from: '2011-10-10' },
      api.tokens.user,
    );
    expect(cities.data?.topCities).toEqual([{ name: place.city, visits: 1 }]);
  });
});

describe('datasets', () => {
  it('are created by service callers only, once, with a valid name', async () => {
    expect(codes(await post(api.url, CreateLocationDatasetDocument, { name: 'x' }, api.tokens.user))).toEqual([
      'FORBIDDEN',
    ]);
    expect(codes(await post(api.url, CreateLocationDatasetDocument, { name: 'a:b' }, api.tokens.service))).toEqual([
      'BAD_USER_INPUT',
    ]);
    await createDataset('spiele-österreich');
    const again = await post(api.url, CreateLocationDatasetDocument, { name: 'spiele-österreich' }, api.tokens.service);
    expect(again.data?.createLocationDataset).toBe(false);
    const unknown = await post(api.url, TopCountriesDocument, { dataset: 'nope', from: '2011-10-10' }, api.tokens.user);
    expect(codes(unknown)).toEqual(['NOT_FOUND']);
  });
});

describe('uploading a log file over HTTP', () => {
  it('counts a gzip file as it arrives, and reads days, countries, regions and cities equal to an independent count', async () => {
    await createDataset('game');
    const generator = new LogGenerator(locator(), { ...DEFAULT_GENERATOR, places: 400, step: 3 });
    const lines = generator.lines(60_000);
    const { client } = fixture.connect(api.tokens.service);
    const watch = wsOperation(client, LocationUploadChangedDocument, { dataset: 'game', upload: 'day-1' });
    const totals = wsOperation(client, LocationTotalsChangedDocument, { dataset: 'game' });
    await eventually(async () => (await api.redis.subscribers(locationKeys('game').totalsChanged)) >= 1, 5000, 20);
    const sent = await sendFile('game', 'day-1', zlib.gzipSync(lines.join('\n') + '\n'));
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ dataset: 'game', upload: 'day-1', lines: 60_000, complete: true });
    await counted('game', 'day-1');
    const done = await progress('game', 'day-1');
    expect(done).toMatchObject({
      lines: 60_000,
      doneLines: 60_000,
      refused: generator.reference.refused,
      complete: true,
    });
    expect(done!.chunks).toBeGreaterThan(10);
    // Operators see the end of an upload in the log.
    await eventually(
      async () => api.logs.some((line) => line.msg === 'upload counted' && line.upload === 'day-1'),
      5000,
      20,
    );
    expect(api.logs.find((line) => line.msg === 'upload counted' && line.upload === 'day-1')).toMatchObject({
      dataset: 'game',
      lines: 60_000,
      refused: generator.reference.refused,
    });
    // The notices: stored steps, counted steps, the last one saying everything is counted.
    const seen = await watch.take(2);
    expect(seen[0].data?.locationUploadChanged.dataset).toBe('game');
    await eventually(
      async () => watch.results.some((r) => r.data?.locationUploadChanged.doneLines === 60_000),
      5000,
      20,
    );
    await eventually(async () => totals.results.length > 0, 5000, 20);

    const reference = generator.reference;
    const days = [...reference.visits.keys()].sort();
    const listed = await post(api.url, LocationDaysDocument, { dataset: 'game' }, api.tokens.user);
    expect(listed.data?.locationDays).toEqual(days);
    const day = days[0];
    const top = await post(api.url, TopCountriesDocument, { dataset: 'game', from: day, limit: 1000 }, api.tokens.user);
    expect(top.data?.topCountries).toEqual(reference.top(day));
    const country = reference.top(day)[0].name;
    const regions = await post(
      api.url,
      TopRegionsDocument,
      { dataset: 'game', country, from: day, limit: 1000 },
      api.tokens.user,
    );
    expect(regions.data?.topRegions).toEqual(reference.top(day, country));
    const region = reference.top(day, country)[0].name;
    const cities = await post(
      api.url,
      TopCitiesDocument,
      { dataset: 'game', country, region, from: day, limit: 3 },
      api.tokens.user,
    );
    expect(cities.data?.topCities).toEqual(reference.top(day, country, region).slice(0, 3));
    const range = await post(
      api.url,
      LocationTotalsDocument,
      { dataset: 'game', from: days[0], to: days[days.length - 1] },
      api.tokens.user,
    );
    expect(range.data?.locationTotals).toEqual({
      days: days.length,
      visits: 60_000 - reference.refused,
      unknownVisits: 0,
    });
    const series = await post(
      api.url,
      PlaceVisitsDocument,
      { dataset: 'game', country, from: days[0], to: days[days.length - 1] },
      api.tokens.user,
    );
    expect(series.data?.placeVisits).toEqual(
      days.map((d) => ({ day: d, visits: reference.top(d).find((c) => c.name === country)?.visits ?? 0 })),
    );
    // Raw addresses are gone from Redis once counted: only the places stay.
    expect(await api.redis.client.xlen(locationKeys('game').chunks)).toBe(0);
  });

  it.each(['rest', 'all'] as const)(
    'resumes an upload cut off mid-file, sending %s again, counting every line once',
    async (resend) => {
      await createDataset('resumed');
      const generator = new LogGenerator(locator(), { ...DEFAULT_GENERATOR, places: 200, seed: 9 });
      const text = Buffer.from(generator.lines(40_000).join('\n') + '\n');
      const endedEarly = () => api.logs.filter((line) => line.msg === 'log upload ended early').length;
      const endedBefore = endedEarly();
      // Half the file, then the connection drops.
      await new Promise<void>((resolve) => {
        const request = http.request(logsUrl('resumed', 'big'), {
          method: 'POST',
          headers: { authorization: `Bearer ${api.tokens.service}`, 'content-length': String(text.length) },
        });
        request.on('error', () => resolve());
        request.write(text.subarray(0, text.length / 2));
        setTimeout(() => {
          request.destroy();
          resolve();
        }, 500);
      });
      // The server may still be storing what reached it before the drop (on a loaded machine, for
      // seconds): what it holds is read once it has given up on the request.
      await eventually(async () => endedEarly() > endedBefore, 30_000, 20);
      const held = (await progress('resumed', 'big'))!;
      expect(held.lines).toBeGreaterThan(0);
      expect(held.complete).toBe(false);
      expect(held.lines).toBeLessThan(40_000);
      // A gap is refused with where to go on.
      const gap = await sendFile('resumed', 'big', text, { query: `?from=${held.lines + 5}` });
      expect(gap.status).toBe(409);
      expect((gap.body.errors as { extensions: { lines: number } }[])[0].extensions.lines).toBe(held.lines);
      if (resend === 'rest') {
        // The sender skips the lines the server has.
        let at = 0;
        for (let i = 0; i < held.lines; i++) at = text.indexOf(10, at) + 1;
        const rest = await sendFile('resumed', 'big', text.subarray(at), { query: `?from=${held.lines}` });
        expect(rest.status).toBe(200);
        expect(rest.body.lines).toBe(40_000);
      } else {
        // Or sends it all again: the chunks the upload has are recognised and not stored twice.
        const again = await sendFile('resumed', 'big', text);
        expect(again.status).toBe(200);
        expect(again.body.lines).toBe(40_000);
      }
      expect((await progress('resumed', 'big'))!.lines).toBe(40_000);
      await counted('resumed', 'big');
      const total = await post(
        api.url,
        LocationTotalsDocument,
        { dataset: 'resumed', from: '2011-10-10' },
        api.tokens.user,
      );
      expect(total.data?.locationTotals.visits).toBe(generator.reference.visits.get('2011-10-10'));
    },
  );

  it('refuses a gzip bomb and a file over LOCATION_MAX_UPLOAD_BYTES before storing anything', async () => {
    await createDataset('guarded');
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, '1.2.3.4 2011-10-10 00:00:00 x\n'));
    expect(bomb.length).toBeLessThan(MAX_UPLOAD / 10);
    const refused = await sendFile('guarded', 'bomb', bomb);
    expect(refused.status).toBe(413);
    expect(codes(refused.body as never)).toEqual(['PAYLOAD_TOO_LARGE']);
    const big = await sendFile('guarded', 'big', Buffer.alloc(MAX_UPLOAD + 1, 'x\n'));
    expect(big.status).toBe(413);
    expect(await api.redis.client.xlen(locationKeys('guarded').chunks)).toBe(0);
    expect(await progress('guarded', 'bomb')).toBeNull();
    expect(await progress('guarded', 'big')).toBeNull();
    const notGzip = await sendFile('guarded', 'bad-gzip', Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    expect(notGzip.status).toBe(400);
  });

  it('lets only service callers upload, and answers unknown datasets and bad names with codes', async () => {
    await createDataset('private');
    const body = Buffer.from('8.8.8.8 2011-10-10 00:00:00 x\n');
    expect((await sendFile('private', 'u', body, { token: undefined })).status).toBe(401);
    expect((await sendFile('private', 'u', body, { token: api.tokens.user })).status).toBe(403);
    expect((await sendFile('private', 'u', body, { token: 'not-a-token' })).status).toBe(401);
    const unknown = await sendFile('missing', 'u', body);
    expect(unknown.status).toBe(404);
    expect(codes(unknown.body as never)).toEqual(['NOT_FOUND']);
    expect((await sendFile('private', 'bad name', body)).status).toBe(400);
    expect((await sendFile('private', 'u', body, { query: '?from=-1' })).status).toBe(400);
    expect(await api.redis.client.exists(locationKeys('private').upload('u'))).toBe(0);
    // Progress is for service callers too: refused samples are lines of the logs.
    const asUser = await fetch(logsUrl('private', 'u'), { headers: { authorization: `Bearer ${api.tokens.user}` } });
    expect(asUser.status).toBe(403);
    const asService = await fetch(logsUrl('private', 'u'), {
      headers: { authorization: `Bearer ${api.tokens.service}` },
    });
    expect(asService.status).toBe(404);
  });
});

describe('uploads in parts and from two senders', () => {
  it('keeps a last line cut off by a part that is not the end, and takes it whole from the next part', async () => {
    await createDataset('parts');
    const text = '8.8.8.8 2011-10-10 00:00:01 a\n173.194.38.137 2011-10-10 00:00:02 b\n8.8.8.8 2011-10-10 00:00:03 c';
    const first = await sendFile('parts', 'u', Buffer.from(text.slice(0, 45)), { query: '?complete=0' });
    expect(first.body).toMatchObject({ lines: 1, complete: false });
    const rest = text.slice(text.indexOf('\n') + 1);
    const second = await sendFile('parts', 'u', Buffer.from(rest), { query: '?from=1&complete=1' });
    expect(second.body).toMatchObject({ lines: 3, complete: true });
    await counted('parts', 'u');
    expect(await progress('parts', 'u')).toMatchObject({ lines: 3, refused: 0 });
    const total = await post(
      api.url,
      LocationTotalsDocument,
      { dataset: 'parts', from: '2011-10-10' },
      api.tokens.user,
    );
    expect(total.data?.locationTotals.visits).toBe(3);
  });

  it('counts a file once when a second sender of it joins half-way and finds chunks stored already', async () => {
    await createDataset('twice');
    // Lines of 32 bytes, 2,048 to a block: a block is one chunk (LOCATION_CHUNK_BYTES 64 KiB).
    const block = (day: string) => Buffer.from(`8.8.8.8 ${day} 00:00:01 abc\n`.repeat(2048));
    const file = [block('2011-10-10'), block('2011-10-10'), block('2011-10-11'), block('2011-10-12')];
    const lines = async () => (await progress('twice', 'u'))?.lines ?? 0;
    const open = (from: number, length: number) => {
      const request = http.request(logsUrl('twice', 'u', `?from=${from}`), {
        method: 'POST',
        headers: { authorization: `Bearer ${api.tokens.service}`, 'content-length': String(length) },
      });
      const answer = new Promise<number>((resolve, reject) => {
        request.on('response', (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode!));
        });
        request.on('error', reject);
      });
      return { request, answer };
    };
    const a = open(0, 4 * file[0].length);
    a.request.write(file[0]);
    await eventually(async () => (await lines()) === 2048, 5000, 10);
    // B starts after the first block, as a sender resuming from the server's count would.
    const b = open(2048, 3 * file[0].length);
    b.request.flushHeaders();
    a.request.write(Buffer.concat([file[1], file[2]]));
    await eventually(async () => (await lines()) === 3 * 2048, 5000, 10);
    // B's blocks 2 and 3 are there already: it goes on after each of them, not after all A sent.
    b.request.write(Buffer.concat([file[1], file[2]]));
    a.request.end(file[3]);
    expect(await a.answer).toBe(200);
    b.request.end(file[3]);
    expect(await b.answer).toBe(200);
    await counted('twice', 'u');
    expect(await progress('twice', 'u')).toMatchObject({ lines: 4 * 2048, chunks: 4 });
    for (const [day, visits] of [
      ['2011-10-10', 4096],
      ['2011-10-11', 2048],
      ['2011-10-12', 2048],
    ] as const) {
      const total = await post(api.url, LocationTotalsDocument, { dataset: 'twice', from: day }, api.tokens.user);
      expect(total.data?.locationTotals.visits).toBe(visits);
    }
  });
});

describe('appending lines over GraphQL', () => {
  it('appends a live tail in batches; a retried batch adds nothing; the result is counted', async () => {
    await createDataset('tail');
    const append = (fromLine: number, lines: string[], complete = false) =>
      post(
        api.url,
        AppendLocationLinesDocument,
        { dataset: 'tail', upload: 'live', fromLine, lines, complete },
        api.tokens.service,
      );
    const first = ['8.8.8.8 2011-10-10 00:00:01 a', '173.194.38.137 2011-10-10 00:00:02 b'];
    expect((await append(0, first)).data?.appendLocationLines).toEqual({ lines: 2, stored: true, complete: false });
    expect((await append(0, first)).data?.appendLocationLines).toEqual({ lines: 2, stored: false, complete: false });
    expect(codes(await append(5, first))).toEqual(['CONFLICT']);
    expect(codes(await append(2, ['a\nb']))).toEqual(['BAD_USER_INPUT']);
    expect(
      codes(
        await append(
          2,
          Array.from({ length: 101 }, () => 'x'),
        ),
      ),
    ).toEqual(['BAD_USER_INPUT']);
    expect((await append(2, ['2001:4860:4860::8888 2011-10-11 00:00:03 c'], true)).data?.appendLocationLines).toEqual({
      lines: 3,
      stored: true,
      complete: true,
    });
    const user = await post(
      api.url,
      AppendLocationLinesDocument,
      { dataset: 'tail', upload: 'x', fromLine: 0, lines: first, complete: false },
      api.tokens.user,
    );
    expect(codes(user)).toEqual(['FORBIDDEN']);
    await counted('tail', 'live');
    const top = await post(
      api.url,
      TopCountriesDocument,
      { dataset: 'tail', from: '2011-10-10', to: '2011-10-11' },
      api.tokens.user,
    );
    expect(top.data?.topCountries).toEqual([
      { name: 'US', visits: 2 },
      { name: 'CA', visits: 1 },
    ]);
    const forgot = await post(
      api.url,
      ForgetLocationDaysDocument,
      { dataset: 'tail', before: '2011-10-11' },
      api.tokens.service,
    );
    expect(forgot.data?.forgetLocationDays).toEqual(['2011-10-10']);
    const days = await post(api.url, LocationDaysDocument, { dataset: 'tail' }, api.tokens.user);
    expect(days.data?.locationDays).toEqual(['2011-10-11']);
  });

  it('checks days, ranges and limits', async () => {
    await createDataset('checks');
    const top = (from: string, to?: string, limit?: number) =>
      post(api.url, TopCountriesDocument, { dataset: 'checks', from, to, limit }, api.tokens.user);
    expect(codes(await top('2011-02-30'))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await top('2011-10-10', '2011-10-09'))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await top('2011-01-01', '2013-01-01'))).toEqual(['BAD_USER_INPUT']);
    expect(codes(await top('2011-10-10', undefined, 0))).toEqual(['BAD_USER_INPUT']);
    expect((await top('2011-10-10')).data?.topCountries).toEqual([]);
  });
});

describe('appending lines with the default limits', () => {
  let defaults: TestServer;
  beforeAll(async () => {
    // No LOCATION_MAX_APPEND_LINES nor BODY_LIMIT_BYTES: as a deployment that sets neither.
    defaults = await startTestServer({}, api.redis);
  }, 60_000);
  afterAll(async () => {
    await defaults?.stop();
  });

  it('accepts a batch of LOCATION_MAX_APPEND_LINES typical lines within BODY_LIMIT_BYTES, and refuses one more line by count', async () => {
    const { maxAppendLines } = defaults.config.location;
    const { bodyLimitBytes } = defaults.config;
    expect(maxAppendLines).toBe(1568);
    expect(bodyLimitBytes).toBe(100 * 1024);
    const created = await post(defaults.url, CreateLocationDatasetDocument, { name: 'batch' }, defaults.tokens.service);
    expect(created.data?.createLocationDataset).toBe(true);
    const generator = new LogGenerator(locator(), { ...DEFAULT_GENERATOR, seed: 5 });
    const lines = generator.lines(maxAppendLines + 1);
    const append = (batch: string[]) =>
      post(
        defaults.url,
        AppendLocationLinesDocument,
        { dataset: 'batch', upload: 'tail', fromLine: 0, lines: batch, complete: true },
        defaults.tokens.service,
      );
    const full = lines.slice(0, maxAppendLines);
    const bytes = Buffer.byteLength(
      JSON.stringify({ query: print(AppendLocationLinesDocument), variables: { lines: full } }),
    );
    // A batch that really is near the limit: typical lines fill most of it.
    expect(bytes).toBeGreaterThan(bodyLimitBytes * 0.6);
    expect(bytes).toBeLessThan(bodyLimitBytes);

    const over = await append(lines);
    expect(over.status).toBe(200);
    expect(codes(over)).toEqual(['BAD_USER_INPUT']);
    expect(over.errors![0].message).toBe(`lines must hold at most ${maxAppendLines} lines`);
    const accepted = await append(full);
    expect(accepted.status).toBe(200);
    expect(accepted.errors).toBeUndefined();
    expect(accepted.data?.appendLocationLines).toEqual({ lines: maxAppendLines, stored: true, complete: true });
    await eventually(async () => {
      const upload = await post(
        defaults.url,
        LocationUploadDocument,
        { dataset: 'batch', upload: 'tail' },
        defaults.tokens.service,
      );
      return upload.data?.locationUpload?.done === true && upload.data.locationUpload.doneLines === maxAppendLines;
    }, 20_000);
  });
});
