// Group chats under load: members send with a clientMessageId until answered and pull with
// pendingMessages + markSeen. Checks: every acknowledged message reaches every member once and in
// id order; nothing is shown that was not sent. docs/development.md#soak.
import { check, Load, none, sample, type Check } from './actor';
import { untilAnswered } from './client';

const CHATS = 4;
const MEMBERS = 4;

interface Message {
  id: number;
  message: string;
  sender: string;
}

interface ChatState {
  id: string;
  members: string[];
  /** Acknowledged sends: message text -> id. */
  sent: Map<string, number>;
  /** Texts sent whose answer never came (the run ended first): may or may not be stored. */
  unanswered: Set<string>;
  /** Per member: ids in the order first shown, and their texts. */
  shown: Map<string, Message[]>;
}

const SEND = `mutation($chatId: ID!, $message: String!, $clientMessageId: ID) {
  sendMessage(chatId: $chatId, message: $message, clientMessageId: $clientMessageId) { id }
}`;
const PENDING = `query { pendingMessages(limit: 200) { chatId messages { id message sender } } }`;
const SEEN = `mutation($chatId: ID!, $messageId: Int!) { markSeen(chatId: $chatId, messageId: $messageId) }`;
const CREATE = `mutation($members: [ID!]!, $message: String!) { createChat(members: $members, message: $message) { id latestMessageId } }`;

export class ChatLoad extends Load {
  readonly name = 'chat';
  private readonly chats: ChatState[] = [];
  protected readonly counts = { sent: 0, resent: 0, pulls: 0, shown: 0, repeats: 0 };
  /** Problems met while pulling, in the order met. */
  private readonly problems: string[] = [];

  async setup(): Promise<void> {
    for (let c = 0; c < CHATS; c++) {
      const members = Array.from({ length: MEMBERS }, (_, m) => `soak-${this.soak.runId}-chat${c}-m${m}`);
      const first = `${members[0]} #0`;
      const outcome = await this.call<{ id: string; latestMessageId: number }>(members[0], CREATE, {
        members: members.slice(1),
        message: first,
      });
      if (outcome.kind !== 'ok') throw new Error(`createChat: ${JSON.stringify(outcome)}`);
      this.chats.push({
        id: outcome.data.id,
        members,
        sent: new Map([[first, outcome.data.latestMessageId]]),
        unanswered: new Set(),
        shown: new Map(members.map((m) => [m, []])),
      });
    }
  }

  async run(stop: () => boolean): Promise<void> {
    const senders = this.chats.flatMap((chat) => chat.members.map((member) => this.sender(chat, member, stop)));
    await Promise.all([...senders, ...this.members().map((member) => this.puller(member, stop))]);
  }

  async drain(deadline: number): Promise<void> {
    // Pull until a pull brings nothing for every member (or the deadline passes); a pull that
    // brings only messages shown before (their markSeen was lost) is acknowledged and pulled again.
    for (const member of this.members()) {
      while (Date.now() < deadline) {
        const got = await this.pullOnce(member);
        if (got === 0) break;
        if (got < 0) await this.pause(200);
      }
    }
  }

  check(): Check[] {
    const lost: string[] = [];
    const extra: string[] = [];
    const twice: string[] = [];
    for (const chat of this.chats) {
      const expected = [...chat.sent.values()].sort((a, b) => a - b);
      const ids = new Set(chat.sent.values());
      if (ids.size !== chat.sent.size)
        twice.push(`${chat.id}: ${chat.sent.size} acknowledged texts have ${ids.size} distinct ids`);
      for (const [member, shown] of chat.shown) {
        const got = new Set(shown.map((m) => m.id));
        for (const id of expected) if (!got.has(id)) lost.push(`${member} in ${chat.id}: id ${id}`);
        for (const message of shown) {
          const id = chat.sent.get(message.message);
          if (id === undefined ? !chat.unanswered.has(message.message) : id !== message.id)
            extra.push(`${member} in ${chat.id}: id ${message.id} "${message.message.slice(0, 40)}"`);
        }
        const texts = new Set(shown.map((m) => m.message));
        if (texts.size !== shown.length)
          twice.push(`${member} in ${chat.id}: ${shown.length - texts.size} texts shown under two ids`);
      }
    }
    const acknowledged = this.chats.reduce((n, chat) => n + chat.sent.size, 0);
    return [
      check(
        'chat: every acknowledged message reached every member',
        lost.length === 0,
        lost.length ? `missing ${sample(lost)}` : `${acknowledged} messages × ${MEMBERS} members`,
      ),
      none(
        'chat: in id order, each once',
        [...this.problems, ...twice],
        `${this.counts.shown} shown, ${this.counts.repeats} repeats of a shown id dropped`,
      ),
      none(
        'chat: nothing shown that was not sent',
        extra,
        `${this.counts.resent} sends were sent again after a lost answer`,
      ),
    ];
  }

  override stats(): Record<string, number> {
    return { ...super.stats(), unanswered: this.chats.reduce((n, chat) => n + chat.unanswered.size, 0) };
  }

  /** Every member of every chat, once setup() is done. */
  members(): string[] {
    return this.chats.flatMap((chat) => chat.members);
  }

  private async sender(chat: ChatState, member: string, stop: () => boolean): Promise<void> {
    for (let n = 1; !stop(); n++) {
      const message = `${member} #${n}`;
      const clientMessageId = `${member}-${n}`;
      let sends = 0;
      const outcome = await untilAnswered(() => {
        if (sends++ > 0) this.counts.resent++;
        return this.call<{ id: number }>(member, SEND, { chatId: chat.id, message, clientMessageId });
      }, stop);
      if (outcome === undefined) chat.unanswered.add(message);
      else if (outcome.kind === 'ok') {
        chat.sent.set(message, outcome.data.id);
        this.counts.sent++;
      } else this.problems.push(`send refused: ${outcome.code} ${outcome.message}`);
      await this.pause(40, 80);
    }
  }

  private async puller(member: string, stop: () => boolean): Promise<void> {
    while (!stop()) {
      const got = await this.pullOnce(member);
      await (got < 0 ? this.pause(200) : this.pause(50, 100));
    }
  }

  /** One pull and its acknowledgements: how many messages it brought (new or again), -1 when it failed. */
  private async pullOnce(member: string): Promise<number> {
    this.counts.pulls++;
    const outcome = await this.call<{ chatId: string; messages: Message[] }[]>(member, PENDING);
    if (outcome.kind !== 'ok') return -1;
    let pulled = 0;
    for (const pending of outcome.data) {
      pulled += pending.messages.length;
      const chat = this.chats.find((c) => c.id === pending.chatId);
      if (!chat) {
        this.problems.push(`${member} was shown chat ${pending.chatId}, not one of its own`);
        continue;
      }
      const shown = chat.shown.get(member)!;
      const seen = new Set(shown.map((m) => m.id));
      let lastId = shown.at(-1)?.id ?? 0;
      for (const message of pending.messages) {
        if (seen.has(message.id)) {
          this.counts.repeats++;
          continue;
        }
        if (message.id < lastId) this.problems.push(`${member} in ${chat.id}: id ${message.id} shown after ${lastId}`);
        shown.push(message);
        seen.add(message.id);
        lastId = Math.max(lastId, message.id);
        this.counts.shown++;
      }
      // A lost acknowledgement only means the same messages come again; they are dropped above.
      if (pending.messages.length > 0)
        await this.call<boolean>(member, SEEN, { chatId: chat.id, messageId: pending.messages.at(-1)!.id });
    }
    return pulled;
  }
}
