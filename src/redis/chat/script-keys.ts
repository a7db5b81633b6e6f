// The keys of one chat as its scripts take them: every chat script gets its keys from here, so
// they all share the chat's hash tag (keys.ts) and run on its slot.
import { chatKeys } from '../keys';

type ChatKeyName = Exclude<keyof typeof chatKeys, 'ids'>;

/** The named keys of `chatId`, in the order given (the order of the script's KEYS). */
export function keysOf(chatId: string, ...names: ChatKeyName[]): string[] {
  return names.map((name) => chatKeys[name](chatId));
}
