// Chat calls for the fault tests: a send whose outcome is recorded whatever happens (answered,
// refused with a code, or no answer at all), a pull that drains everything pending, and the
// check that a member holds every stored message exactly once.
import {
  CreateChatDocument,
  FetchPendingMessagesDocument,
  SendMessageDocument,
} from '../../src/generated/client/graphql';
import { TokenVerifier } from '../../src/security/auth';
import { post } from './graphql';
import { TEST_SECRET } from './server';

const verifier = new TokenVerifier({ secret: TEST_SECRET });

/** A user token the servers started with JWT_SECRET=TEST_SECRET accept. */
export const userToken = (user: string): string => verifier.sign(user, [], 3600);

/** Environment for `node dist/main.js` against a Redis the test started (`redisEnv`: REDIS_URL or the cluster's). */
export const serverEnv = (
  redisEnv: Record<string, string>,
  dataDir: string,
  extra: Record<string, string> = {},
): Record<string, string> => ({
  NODE_ENV: 'test',
  ...redisEnv,
  JWT_SECRET: TEST_SECRET,
  DATA_DIR: dataDir,
  COUNTER_CLEANUP: 'off',
  ROW_CACHE: 'off',
  RATE_LIMIT_USER_PER_MINUTE: '10000000',
  RATE_LIMIT_IP_PER_MINUTE: '10000000',
  ...extra,
});

export interface Stored {
  id: number;
  sender: string;
  message: string;
}

export type SendOutcome =
  | { kind: 'acked'; id: number; elapsedMs: number }
  | { kind: 'refused'; code: unknown; status: number; elapsedMs: number }
  | { kind: 'no-answer'; error: string; elapsedMs: number };

export interface Send {
  sender: string;
  message: string;
  clientMessageId: string;
  outcome: SendOutcome;
}

/** One sendMessage; never throws, so a stream can go on through any fault. */
export async function trySend(
  url: string,
  token: string,
  chatId: string,
  message: string,
  clientMessageId: string,
): Promise<SendOutcome> {
  const started = Date.now();
  try {
    const result = await post(url, SendMessageDocument, { chatId, message, clientMessageId }, token);
    const elapsedMs = Date.now() - started;
    const sent = result.data?.sendMessage;
    if (sent && !result.errors) {
      if (sent.message !== message) throw new Error(`sent "${message}" but the server answered "${sent.message}"`);
      return { kind: 'acked', id: sent.id, elapsedMs };
    }
    return { kind: 'refused', code: result.errors?.[0]?.extensions?.code, status: result.status, elapsedMs };
  } catch (error) {
    return { kind: 'no-answer', error: (error as Error).message, elapsedMs: Date.now() - started };
  }
}

/** Creates a chat of the creator and `members`; its first message is `first`. */
export async function createChat(url: string, creator: string, members: string[], first: string): Promise<string> {
  const created = await post(url, CreateChatDocument, { members, message: first }, userToken(creator));
  if (created.errors || !created.data) throw new Error(`createChat failed: ${JSON.stringify(created.errors)}`);
  return created.data.createChat.id;
}

/**
 * fetchPendingMessages until nothing is left, in small pages so `remaining` is exercised; the
 * messages of one chat in the order they came.
 */
export async function pullAll(url: string, token: string, chatId: string, limit = 25): Promise<Stored[]> {
  const received: Stored[] = [];
  for (let round = 0; round < 10_000; round++) {
    const result = await post(url, FetchPendingMessagesDocument, { limit }, token);
    if (result.errors || !result.data) throw new Error(`fetchPendingMessages failed: ${JSON.stringify(result.errors)}`);
    const chats = result.data.fetchPendingMessages;
    for (const chat of chats) {
      if (chat.chatId !== chatId) throw new Error(`unexpected chat ${chat.chatId}`);
      received.push(...chat.messages.map(({ id, sender, message }) => ({ id, sender, message })));
    }
    if (chats.every((chat) => chat.remaining === 0 && chat.messages.length === 0)) return received;
  }
  throw new Error('fetchPendingMessages never ran dry');
}

/** 1..n: message ids of a chat have no gaps. */
export const oneTo = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);
