// What clients see when things go wrong: codes always, internals never in production.
import { GraphQLError } from 'graphql';
import pino from 'pino';
import { CountersDocument } from '../../src/generated/client/graphql';
import { createErrorFormatter } from '../../src/schema/format-error';
import { codes, post } from '../support/graphql';
import { startTestServer } from '../support/server';

describe('createErrorFormatter', () => {
  const resolverError = (original: Error) =>
    new GraphQLError(original.message, {
      path: ['counter'],
      originalError: original,
      extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['at secret.ts:1'] },
    });

  it('hides the message and stack of an unexpected error in production', () => {
    const format = createErrorFormatter({ isProduction: true, logger: pino({ level: 'silent' }) });
    const error = resolverError(new TypeError('cannot read x of undefined at /srv/app'));
    expect(format(error.toJSON(), error)).toEqual({
      message: 'Internal server error',
      path: ['counter'],
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });

  it('shows the message outside production', () => {
    const format = createErrorFormatter({ isProduction: false, logger: pino({ level: 'silent' }) });
    const error = resolverError(new TypeError('boom'));
    expect(format(error.toJSON(), error)).toMatchObject({
      message: 'boom',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
  });

  it.each([true, false])(
    "answers graphql-js's error after the 50th bad variable value as BAD_USER_INPUT, logging nothing (production %s)",
    (isProduction) => {
      const lines: unknown[] = [];
      const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
      const format = createErrorFormatter({ isProduction, logger });
      // What getVariableValues adds, and how Apollo hands it to formatError (code and stack filled in).
      const error = new GraphQLError('Too many errors processing variables, error limit reached. Execution aborted.');
      const formatted = { message: error.message, extensions: { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['x'] } };
      const expected = {
        message: 'More than 50 variable values are invalid: the first 50 are reported, the rest were not checked',
        extensions: { code: 'BAD_USER_INPUT' },
      };
      expect(format(formatted, error)).toEqual(expected);
      // As the WebSocket server hands it over: graphql-js's JSON, no code.
      expect(format(error.toJSON(), error)).toEqual(expected);
      expect(lines).toEqual([]);
    },
  );

  it('still reports an error of that wording from a resolver as internal', () => {
    const format = createErrorFormatter({ isProduction: true, logger: pino({ level: 'silent' }) });
    const error = resolverError(new Error('Too many errors processing variables, error limit reached.'));
    expect(format(error.toJSON(), error).extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
  });

  it('reports a lost Redis connection as STORE_UNAVAILABLE', () => {
    const format = createErrorFormatter({ isProduction: true, logger: pino({ level: 'silent' }) });
    const error = resolverError(new Error('Connection is closed.'));
    expect(format(error.toJSON(), error).extensions).toEqual({ code: 'STORE_UNAVAILABLE' });
  });
});

describe('when Redis goes away', () => {
  it('answers STORE_UNAVAILABLE promptly and reports not ready', async () => {
    const api = await startTestServer();
    try {
      await api.redis.stop();
      const started = Date.now();
      const read = await post(api.url, CountersDocument, {}, api.tokens.user);
      expect(codes(read)).toEqual(['STORE_UNAVAILABLE']);
      expect(Date.now() - started).toBeLessThan(10_000);
      const ready = await fetch(api.url.replace('/graphql', '/readyz'));
      expect(ready.status).toBe(503);
      const health = await fetch(api.url.replace('/graphql', '/healthz'));
      expect(health.status).toBe(200);
    } finally {
      await api.server.stop();
    }
  }, 30_000);
});
