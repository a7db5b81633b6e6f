// Starts a chat: its other members by user name, its first message, and whether anyone who knows
// its id may join. The server checks each name and the text; its errors show with their code.
import { useState, type FormEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { AppCreateChatDocument } from '../../ops';
import { ErrorLine } from '../../errors';
import { MAX_MESSAGE, MAX_NAME } from './format';

/** Room for a few dozen names; the server holds a chat to CHAT_MAX_MEMBERS. */
const MAX_MEMBERS_TEXT = 40 * (MAX_NAME + 2);

export function NewChat({ onCreated }: { onCreated: (chatId: string) => void }) {
  const [members, setMembers] = useState('');
  const [message, setMessage] = useState('');
  const [open, setOpen] = useState(false);
  const [create, { loading, error }] = useMutation(AppCreateChatDocument);

  const submit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    const names = members.split(/[\s,]+/).filter((name) => name !== '');
    const { data } = await create({ variables: { members: names, message, open } }).catch(() => ({ data: undefined }));
    if (data === undefined) return;
    setMembers('');
    setMessage('');
    setOpen(false);
    onCreated(data.createChat.id);
  };

  return (
    <form className="panel new-chat" aria-label="New chat" onSubmit={(event) => void submit(event)}>
      <h3>New chat</h3>
      <label>
        Members
        <input
          value={members}
          onChange={(event) => setMembers(event.target.value)}
          placeholder="bob, carol"
          maxLength={MAX_MEMBERS_TEXT}
          required
        />
      </label>
      <label>
        First message
        <textarea
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          maxLength={MAX_MESSAGE}
          rows={2}
          required
        />
      </label>
      <label className="check">
        <input type="checkbox" checked={open} onChange={(event) => setOpen(event.target.checked)} /> Anyone with the id
        may join
      </label>
      <button type="submit" disabled={loading}>
        Start chat
      </button>
      <ErrorLine error={error} />
    </form>
  );
}
