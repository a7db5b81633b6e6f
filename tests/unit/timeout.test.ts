// The one helper that bounds waits on other processes.
import { TimeoutError, withTimeout } from '../../src/common/timeout';

describe('withTimeout', () => {
  it('passes through a value that arrives in time', async () => {
    await expect(withTimeout(Promise.resolve(7), 1000)).resolves.toBe(7);
  });

  it('rejects with TimeoutError and its message when the promise is late', async () => {
    const never = new Promise<never>(() => undefined);
    const error = await withTimeout(never, 20, 'too slow').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe('too slow');
  });

  it('passes through a rejection that arrives in time', async () => {
    await expect(withTimeout(Promise.reject(new Error('refused')), 1000)).rejects.toThrow('refused');
  });
});
