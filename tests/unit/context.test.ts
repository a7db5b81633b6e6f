// The operation context: its signal and child logger are made only when a resolver asks, and
// Apollo's copy of it (Object.assign onto an object with the same prototype) must not make them.
import pino from 'pino';
import { createContext } from '../../src/schema/context';

function counted() {
  const made = { signals: 0, loggers: 0 };
  const context = createContext({
    principal: null,
    requestId: 'r1',
    report: {},
    signal: () => {
      made.signals++;
      return new AbortController().signal;
    },
    logger: () => {
      made.loggers++;
      return pino({ level: 'silent' });
    },
  });
  return { made, context };
}

/** What Apollo Server does with the context of every request (ApolloServer.ts, cloneObject). */
const apolloCopy = <T extends object>(object: T): T =>
  Object.assign(Object.create(Object.getPrototypeOf(object) as object) as T, object);

describe('createContext', () => {
  it('makes nothing when copied as Apollo copies it', () => {
    const { made, context } = counted();
    const copy = apolloCopy(context);
    expect(made).toEqual({ signals: 0, loggers: 0 });
    expect(copy.principal).toBeNull();
    expect(copy.requestId).toBe('r1');
    expect(copy.report).toBe(context.report);
  });

  it('makes the signal and logger once, shared by the context and its copies', () => {
    const { made, context } = counted();
    const copy = apolloCopy(context);
    const signal = copy.signal;
    expect(context.signal).toBe(signal);
    expect(apolloCopy(copy).signal).toBe(signal);
    expect(copy.logger).toBe(context.logger);
    expect(made).toEqual({ signals: 1, loggers: 1 });
  });

  it('has no report when none is given', () => {
    const context = createContext({
      principal: null,
      requestId: 'r2',
      signal: () => new AbortController().signal,
      logger: () => pino({ level: 'silent' }),
    });
    expect(context.report).toBeUndefined();
  });
});
