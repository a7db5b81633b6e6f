// Group chats under load: members send with a clientMessageId until answered and pull with
// pendingMessages + markSeen. Checks: every acknowledged message reaches every member once and in
// id order; nothing is shown that was not sent. docs/development.md#soak.
import { check, Load, none, sample, type Check } from './actor';

const CHATS = 4;
const MEMBERS = 4;

const SEND = `mutation($chatId: ID!, $message: String!, $clientMessageId: ID) {
  sendMessage(chatId: $chatId, message: $message, clientMessageId: $clientMessageId) { id }
}`;
const PENDING = `query { pendingMessages(limit: 200) { chatId messages { id message sender } } }`;
const SEEN = `mutation($chatId: ID!, $messageId: Int!) { markSeen(chatId: $chatId, messageId: $messageId) }`;
const CREATE = `mutation($members: [ID!]!, $message: String!) { createChat(members: $members, message: $message) { id latestMessageId } }`;

type Message = { id: number; message: string; sender: string };

export class ChatLoad extends Load {
  readonly name = 'chat';
  private readonly chats: {
    id: string;
    members: string[];
    /** Acknowledged sends: message text -> id. */
    sent: Map<string, number>;
    /** Texts sent whose answer never came (the run ended first): may or may not be stored. */
    unanswered: Set<string>;
    /** Per member: the messages in the order first shown. */
    shown: Map<string, Message[]>;
  }[] = [];
  protected readonly counts = { sent: 0, resent: 0, pulls: 0, shown: 0, repeats: 0 };
  /** Problems met while pulling, in the order met. */
  private readonly problems: string[] = [];

  override async setup(): Promise<void> {
    for (let c = 0; c < CHATS; c++) {
      const members = Array.from({ length: MEMBERS }, (_, m) => `soak-${this.soak.seed}-chat${c}-m${m}`);
      const message = `${members[0]} #0`;
      const variables = { members: members.slice(1), message };
      const created = await this.call<{ id: string; latestMessageId: number }>(members[0], CREATE, variables);
      if (created.kind !== 'ok') throw new Error(`createChat: ${JSON.stringify(created)}`);
      const { id, latestMessageId } = created.data;
      const shown = new Map(members.map((m) => [m, []]));
      this.chats.push({ id, members, sent: new Map([[message, latestMessageId]]), unanswered: new Set(), shown });
    }
  }

  protected clients() {
    const senders = this.chats.flatMap((chat) =>
      chat.members.map((member) => {
        let sends = 0;
        return () => this.send(chat, member, ++sends);
      }),
    );
    return [...senders, ...this.members().map((member) => () => this.pull(member))];
  }

  override async drain(deadline: number): Promise<void> {
    // Pull until a pull brings nothing for every member (or the deadline passes); a pull that
    // brings only messages shown before (their markSeen was lost) is acknowledged and pulled again.
    for (const member of this.members()) {
      for (let got = -1; got !== 0 && Date.now() < deadline;) {
        got = await this.pullOnce(member);
        if (got < 0) await this.pause(200);
      }
    }
  }

  check(): Check[] {
    const [lost, extra, twice]: string[][] = [[], [], []];
    for (const { id: chatId, sent, unanswered, shown } of this.chats) {
      const ids = new Set(sent.values());
      if (ids.size !== sent.size)
        twice.push(`${chatId}: ${sent.size} acknowledged texts have ${ids.size} distinct ids`);
      for (const [member, messages] of shown) {
        const where = `${member} in ${chatId}`;
        const got = new Set(messages.map((m) => m.id));
        for (const id of [...ids].sort((a, b) => a - b)) if (!got.has(id)) lost.push(`${where}: id ${id}`);
        for (const { id, message } of messages)
          if (sent.has(message) ? sent.get(message) !== id : !unanswered.has(message))
            extra.push(`${where}: id ${id} "${message.slice(0, 40)}"`);
        const texts = new Set(messages.map((m) => m.message)).size;
        if (texts !== messages.length) twice.push(`${where}: ${messages.length - texts} texts shown under two ids`);
      }
    }
    const acknowledged = this.chats.reduce((n, chat) => n + chat.sent.size, 0);
    const { shown, repeats, resent } = this.counts;
    const reached = lost.length ? `missing ${sample(lost)}` : `${acknowledged} messages × ${MEMBERS} members`;
    const once = `${shown} shown, ${repeats} repeats of a shown id dropped`;
    return [
      check('chat: every acknowledged message reached every member', lost.length === 0, reached),
      none('chat: in id order, each once', [...this.problems, ...twice], once),
      none('chat: nothing shown that was not sent', extra, `${resent} sends were sent again after a lost answer`),
    ];
  }

  override stats(): Record<string, number> {
    return { ...super.stats(), unanswered: this.chats.reduce((n, chat) => n + chat.unanswered.size, 0) };
  }

  /** Every member of every chat, once setup() is done. */
  members(): string[] {
    return this.chats.flatMap((chat) => chat.members);
  }

  private async send(chat: ChatLoad['chats'][number], member: string, n: number): Promise<void> {
    const [message, clientMessageId] = [`${member} #${n}`, `${member}-${n}`];
    const variables = { chatId: chat.id, message, clientMessageId };
    const outcome = await this.untilAnswered<{ id: number }>(this.stopped, member, SEND, variables);
    if (outcome === undefined) chat.unanswered.add(message);
    else if (outcome.kind === 'ok') {
      chat.sent.set(message, outcome.data.id);
      this.counts.sent++;
    } else this.problems.push(`send refused: ${outcome.code} ${outcome.message}`);
    await this.pause(40, 80);
  }

  private async pull(member: string): Promise<void> {
    const got = await this.pullOnce(member);
    await (got < 0 ? this.pause(200) : this.pause(50, 100));
  }

  /** One pull and its acknowledgements: how many messages it brought (new or again), -1 when it failed. */
  private async pullOnce(member: string): Promise<number> {
    this.counts.pulls++;
    const outcome = await this.call<{ chatId: string; messages: Message[] }[]>(member, PENDING);
    if (outcome.kind !== 'ok') return -1;
    let pulled = 0;
    for (const { chatId, messages } of outcome.data) {
      pulled += messages.length;
      const shown = this.chats.find((c) => c.id === chatId)?.shown.get(member);
      if (!shown) {
        this.problems.push(`${member} was shown chat ${chatId}, not one of its own`);
        continue;
      }
      const seen = new Set(shown.map((m) => m.id));
      let lastId = shown.at(-1)?.id ?? 0;
      for (const message of messages) {
        if (seen.has(message.id)) {
          this.counts.repeats++;
          continue;
        }
        if (message.id < lastId) this.problems.push(`${member} in ${chatId}: id ${message.id} shown after ${lastId}`);
        shown.push(message);
        seen.add(message.id);
        lastId = Math.max(lastId, message.id);
        this.counts.shown++;
      }
      // A lost acknowledgement only means the same messages come again; they are dropped above.
      if (messages.length > 0) await this.call<boolean>(member, SEEN, { chatId, messageId: messages.at(-1)!.id });
    }
    return pulled;
  }
}
