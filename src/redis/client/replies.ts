// The values of a MULTI or a pipeline, checked in one place: the first error among the replies is
// thrown as ioredis made it (so a lost connection is still known for STORE_UNAVAILABLE), and a
// transaction that exec() reports as not run (null) is STORE_UNAVAILABLE, to be retried.
import { storeUnavailable } from '../../common/errors';

export async function repliesOf(pending: Promise<[Error | null, unknown][] | null>): Promise<unknown[]> {
  const replies = await pending;
  if (replies === null) throw storeUnavailable();
  for (const [error] of replies) if (error) throw error;
  return replies.map(([, value]) => value);
}
