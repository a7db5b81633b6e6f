// The one conversion of a stored message to what the API returns, for chat entries and direct
// messages alike (src/resolvers/message.ts).
import type { ChatMessage } from '../../src/redis/chat';
import { toMessage } from '../../src/resolvers/message';

describe('toMessage', () => {
  it('shows a direct message with its time in unix seconds and nothing else changed or added', () => {
    expect(toMessage({ id: 7, sender: 'alice', message: 'hi', ts: 1_700_000_000_123 })).toStrictEqual({
      id: 7,
      sender: 'alice',
      message: 'hi',
      ts: 1_700_000_000.123,
    });
  });

  it('shows an edited chat message with both times in seconds and its kind as the enum name', () => {
    const stored: ChatMessage = {
      id: 3,
      chatId: '42',
      sender: 'bob',
      message: 'fixed',
      ts: 1_700_000_000_500,
      kind: 'message',
      target: null,
      editedAt: 1_700_000_009_250,
      deleted: false,
      version: 5,
    };
    expect(toMessage(stored)).toStrictEqual({
      ...stored,
      ts: 1_700_000_000.5,
      kind: 'MESSAGE',
      editedAt: 1_700_000_009.25,
    });
  });

  it('keeps a never-edited entry null and names an edit or deletion by its kind', () => {
    const base = { chatId: '42', sender: 'bob', message: '', ts: 2_000, target: 3, editedAt: null, version: 0 };
    const shown = (['edit', 'delete'] as const).map((kind, i) =>
      toMessage({ ...base, id: 4 + i, kind, deleted: kind === 'delete', version: 4 + i }),
    );
    expect(shown.map(({ id, kind, ts, editedAt, deleted }) => ({ id, kind, ts, editedAt, deleted }))).toEqual([
      { id: 4, kind: 'EDIT', ts: 2, editedAt: null, deleted: false },
      { id: 5, kind: 'DELETE', ts: 2, editedAt: null, deleted: true },
    ]);
  });
});
