// Typing notices: chat-typing.lua records who is typing for a while and tells the other members,
// at most once a second per member.
import type { RedisClient } from '../client/connection';
import { runScript } from '../client/scripts';
import { chatChannel } from '../keys';
import { keysOf } from './script-keys';

/** How long a typing notice lasts, and the least time between two of one member. */
const TYPING_MS = 5_000;
const TYPING_GAP_MS = 1_000;

export class ChatTyping {
  constructor(private readonly redis: RedisClient) {}

  /** The member starts or stops typing; false when the others were not told (too soon, or nothing to stop). */
  async typing(chatId: string, user: string, typing: boolean): Promise<boolean> {
    const told = await runScript(this.redis, 'chat-typing', keysOf(chatId, 'members', 'typing', 'typingTold'), [
      user,
      typing ? '1' : '0',
      TYPING_MS,
      TYPING_GAP_MS,
      chatChannel(chatId),
      chatId,
    ]);
    return told === 1;
  }
}
