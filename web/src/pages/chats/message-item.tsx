// One message as it now reads, with Edit and Delete on the reader's own. An edit or a deletion is
// an entry of the log like a message: the reply goes to the log, which applies it in order.
import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { AppDeleteMessageDocument, AppEditMessageDocument } from '../../ops';
import { ErrorLine } from '../../errors';
import { clock, MAX_MESSAGE } from './format';
import type { Entry, ShownMessage } from './log';

export function MessageItem({
  chatId,
  message,
  mine,
  onEntry,
}: {
  chatId: string;
  message: ShownMessage;
  mine: boolean;
  onEntry: (entry: Entry) => void;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  const [edit, edited] = useMutation(AppEditMessageDocument, { fetchPolicy: 'no-cache' });
  const [remove, removed] = useMutation(AppDeleteMessageDocument, { fetchPolicy: 'no-cache' });

  const save = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (editing === null || editing.trim() === '') return;
    const result = await edit({ variables: { chatId, messageId: message.id, message: editing } }).catch(
      () => undefined,
    );
    if (result?.data === undefined) return;
    setEditing(null);
    onEntry(result.data.editMessage);
  };
  const drop = async (): Promise<void> => {
    const result = await remove({ variables: { chatId, messageId: message.id } }).catch(() => undefined);
    if (result?.data !== undefined) onEntry(result.data.deleteMessage);
  };

  return (
    <li className={mine ? 'message mine' : 'message'} data-testid="message" data-id={message.id}>
      <div className="message-head">
        <strong className="sender">{message.sender}</strong>
        <span className="muted">
          {clock(message.ts)}
          {message.edited && !message.deleted ? ' · edited' : ''}
        </span>
      </div>
      {editing === null ? (
        <p className={message.deleted ? 'text muted' : 'text'} data-testid="message-text">
          {message.deleted ? 'Message deleted' : message.text}
        </p>
      ) : (
        <form className="inline" aria-label="Edit message" onSubmit={(event) => void save(event)}>
          <label>
            New text
            <input value={editing} onChange={(event) => setEditing(event.target.value)} maxLength={MAX_MESSAGE} />
          </label>
          <button type="submit" disabled={edited.loading}>
            Save
          </button>
          <button type="button" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
      {mine && !message.deleted && editing === null && (
        <div className="message-actions">
          <button type="button" onClick={() => setEditing(message.text)}>
            Edit
          </button>
          <button type="button" disabled={removed.loading} onClick={() => void drop()}>
            Delete
          </button>
        </div>
      )}
      <ErrorLine error={edited.error ?? removed.error} />
    </li>
  );
}
