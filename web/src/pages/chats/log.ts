// One open chat's log as the page shows it: every entry from `first` to `last`, without a gap
// (entry ids count up from 1 per chat without gaps, so a gap is always visible). It grows
// forward from this browser's pending entries (pendingMessages for its device) and back by
// history pages (messages), and says what it has shown (markSeen for the device). Entries are
// applied in order (an EDIT rewrites its target, a DELETE blanks it), each once by its id, so a
// notice told twice, a pull repeated after a reconnect or an entry this page sent itself never
// shows a message twice. Every step runs one after another; nothing here knows React or Apollo.
import type { AppEntryFieldsFragment } from '../../ops';

export type Entry = AppEntryFieldsFragment;

interface LogPage {
  hasMore: boolean;
  historyStart: number;
  messages: Entry[];
}

interface PendingChat {
  chatId: string;
  remaining: number;
  messages: Entry[];
}

/** What the log asks the API for. */
export interface LogSource {
  /** The `last` entries before `before` (the newest without it), oldest first. */
  page(before: number | undefined, last: number): Promise<LogPage>;
  /** This device's unseen entries of every chat, without moving its cursors. */
  pending(): Promise<PendingChat[]>;
  /** Moves this device's cursor (and the user's seen-id with it) to `messageId`. */
  markSeen(messageId: number): Promise<void>;
}

export interface ShownMessage {
  id: number;
  sender: string;
  text: string;
  ts: number;
  edited: boolean;
  deleted: boolean;
}

export interface LogView {
  loaded: boolean;
  messages: ShownMessage[];
  /** Older entries are kept: "Load earlier" asks for them. */
  hasMore: boolean;
  error: unknown;
}

/** Entries per history page (MESSAGE_MAX_PAGE is 100 by default). */
const PAGE = 50;
/** A gap wider than this is not filled page by page: the log starts again at the newest page. */
const MAX_GAP = 500;
/** Pending pulls in a row for one notice, while the chat has more waiting. */
const MAX_ROUNDS = 10;

export class ChatLog {
  private entries = new Map<number, Entry>();
  private first = 1;
  private last = 0;
  private hasMore = false;
  private loaded = false;
  private error: unknown = undefined;
  private acked = 0;
  private shown = true;
  private closed = false;
  /** The id a queued pull is to reach (Infinity: whatever is new); null when none is queued. */
  private wanted: number | null = null;
  private queue: Promise<void> = Promise.resolve();
  private view: LogView = { loaded: false, messages: [], hasMore: false, error: undefined };
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly source: LogSource,
    readonly chatId: string,
  ) {}

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): LogView => this.view;

  /** The newest page, then whatever is pending for this device. */
  start(): void {
    this.closed = false;
    this.run(async () => {
      await this.reload();
      await this.ack();
    });
    this.pull();
  }

  /** Pulls what is new: up to `upTo` (a notice's id; nothing to do when held already), or, without it, whatever is pending. */
  pull(upTo?: number): void {
    const target = upTo ?? Infinity;
    if (this.wanted !== null) {
      // The queued pull has not started: it will cover this one too.
      this.wanted = Math.max(this.wanted, target);
      return;
    }
    this.wanted = target;
    this.run(async () => {
      const wanted = this.wanted ?? Infinity;
      this.wanted = null;
      if (wanted <= this.last) return;
      await this.catchUp(wanted === Infinity ? 0 : wanted);
    });
  }

  /** One page further back. */
  earlier(): void {
    this.run(async () => {
      if (!this.hasMore) return;
      const page = await this.source.page(this.first, PAGE);
      const older = page.messages.filter((entry) => entry.id < this.first);
      for (const entry of older) this.entries.set(entry.id, entry);
      if (older.length > 0) this.first = older[0].id;
      this.hasMore = page.hasMore && older.length > 0;
    });
  }

  /** An entry this page wrote (sent, edited, deleted): shown at once when it is the next one, else pulled up to it. */
  add(entry: Entry): void {
    this.run(async () => {
      if (entry.id === this.last + 1) this.extend([entry]);
      else if (entry.id > this.last) await this.bridge(entry.id);
      await this.ack();
    });
  }

  /** Whether the page is in view: only what is shown is marked seen. */
  setShown(shown: boolean): void {
    this.shown = shown;
    if (shown) this.run(() => this.ack().then(() => undefined));
  }

  /** The chat is closed: what is queued does nothing (start() opens it again). */
  stop(): void {
    this.closed = true;
  }

  private async catchUp(target: number): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const mine = (await this.source.pending()).find((chat) => chat.chatId === this.chatId);
      const fresh = (mine?.messages ?? []).filter((entry) => entry.id > this.last);
      // A gap before them: another tab of this browser marked those seen, or retention took them.
      if (fresh.length > 0 && fresh[0].id > this.last + 1) await this.bridge(fresh[0].id - 1);
      this.extend(fresh);
      const moved = await this.ack();
      // Without a move the device's cursor stays, and the same entries would come again.
      if (!mine || mine.remaining === 0 || (fresh.length === 0 && !moved)) break;
    }
    // Pending entries are shared out over every chat with a limit: the notice's id is the floor.
    if (target > this.last) await this.bridge(target);
    await this.ack();
  }

  /** Fills the log up to `to` from history, or starts again at the newest page when it cannot. */
  private async bridge(to: number): Promise<void> {
    if (!(await this.fill(to))) await this.reload();
  }

  private async fill(to: number): Promise<boolean> {
    const from = this.last + 1;
    if (to - from + 1 > MAX_GAP) return false;
    const found: Entry[] = [];
    let end = to;
    while (end >= from) {
      const page = await this.source.page(end + 1, Math.min(PAGE, end - from + 1));
      const run = page.messages.filter((entry) => entry.id >= from && entry.id <= end);
      if (run.length === 0 || run[run.length - 1].id !== end) return false;
      found.unshift(...run);
      end = run[0].id - 1;
      if (end >= from && !page.hasMore) return false;
    }
    this.extend(found);
    return true;
  }

  private async reload(): Promise<void> {
    const page = await this.source.page(undefined, PAGE);
    this.entries = new Map(page.messages.map((entry) => [entry.id, entry]));
    this.first = page.messages[0]?.id ?? page.historyStart;
    this.last = page.messages.at(-1)?.id ?? page.historyStart - 1;
    this.hasMore = page.hasMore;
    this.loaded = true;
  }

  /** Takes the entries that continue the log from `last`, in id order. */
  private extend(entries: Entry[]): void {
    for (const entry of [...entries].sort((a, b) => a.id - b.id)) {
      if (entry.id !== this.last + 1) continue;
      this.entries.set(entry.id, entry);
      this.last = entry.id;
    }
  }

  /** Marks the last entry seen when the page is in view; true when the cursor moved. */
  private async ack(): Promise<boolean> {
    if (!this.shown || !this.loaded || this.last <= this.acked || this.closed) return false;
    const upTo = this.last;
    await this.source.markSeen(upTo);
    this.acked = Math.max(this.acked, upTo);
    return true;
  }

  private run(task: () => Promise<void>): void {
    this.queue = this.queue.then(async () => {
      if (this.closed) return;
      try {
        await task();
        this.error = undefined;
      } catch (error) {
        this.error = error;
      }
      this.publish();
    });
  }

  private publish(): void {
    if (this.closed) return;
    this.view = { loaded: this.loaded, messages: this.shownMessages(), hasMore: this.hasMore, error: this.error };
    this.listeners.forEach((listener) => listener());
  }

  private shownMessages(): ShownMessage[] {
    const shown = new Map<number, ShownMessage>();
    for (let id = this.first; id <= this.last; id++) {
      const entry = this.entries.get(id);
      if (entry === undefined) continue;
      if (entry.kind === 'MESSAGE') {
        shown.set(id, {
          id,
          sender: entry.sender,
          text: entry.message,
          ts: entry.ts,
          edited: entry.editedAt !== null && entry.editedAt !== undefined,
          deleted: entry.deleted,
        });
        continue;
      }
      const target = entry.target === null || entry.target === undefined ? undefined : shown.get(entry.target);
      if (target === undefined) continue;
      if (entry.kind === 'DELETE') shown.set(target.id, { ...target, text: '', deleted: true });
      else
        shown.set(target.id, {
          ...target,
          text: entry.message,
          edited: true,
          deleted: target.deleted || entry.deleted,
        });
    }
    return [...shown.values()];
  }
}
