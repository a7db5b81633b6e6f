// The send box. Each text gets a clientMessageId when it is first sent and keeps it until it is
// through: sending it again after an error (a reply lost on the way back, say) returns the
// message the server already has instead of sending a second one. While the reader types, the
// others are told (setTyping) now and then; sending or clearing the box tells them it stopped.
import { useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useMutation } from '@apollo/client/react';
import { AppSendMessageDocument, AppSetTypingDocument } from '../../ops';
import { ErrorLine } from '../../errors';
import { randomText } from './device';
import { MAX_MESSAGE } from './format';
import type { Entry } from './log';

/** How often a typing notice is renewed while typing goes on; the server's notice lasts 5 s. */
const TYPING_RENEW_MS = 3_000;

export function Composer({
  chatId,
  device,
  onSent,
}: {
  chatId: string;
  device: string;
  onSent: (entry: Entry) => void;
}) {
  const [text, setText] = useState('');
  const [send, { loading, error, reset }] = useMutation(AppSendMessageDocument, { fetchPolicy: 'no-cache' });
  const attempt = useRef<{ text: string; clientMessageId: string } | null>(null);
  const typing = useTyping(chatId);

  const submit = async (event?: FormEvent): Promise<void> => {
    event?.preventDefault();
    if (text.trim() === '' || loading) return;
    if (attempt.current?.text !== text) attempt.current = { text, clientMessageId: `${device}.${randomText(12)}` };
    const { clientMessageId } = attempt.current;
    const result = await send({ variables: { chatId, message: text, clientMessageId } }).catch(() => undefined);
    if (result?.data === undefined) return;
    attempt.current = null;
    setText('');
    typing(false);
    onSent(result.data.sendMessage);
  };

  const enterSends = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    // Shift+Enter is a new line; Enter while an input method composes a word is part of that.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) void submit(event);
  };

  return (
    <form className="composer" aria-label="Send a message" onSubmit={(event) => void submit(event)}>
      <label>
        Message
        <textarea
          value={text}
          rows={2}
          maxLength={MAX_MESSAGE}
          onKeyDown={enterSends}
          onChange={(event) => {
            setText(event.target.value);
            if (error) reset();
            typing(event.target.value !== '');
          }}
        />
      </label>
      <button type="submit" disabled={loading || text.trim() === ''}>
        {error ? 'Send again' : 'Send'}
      </button>
      <ErrorLine error={error} />
    </form>
  );
}

/** Tells the others the reader is typing, at most every few seconds, and when they stopped. */
function useTyping(chatId: string): (typing: boolean) => void {
  const [setTyping] = useMutation(AppSetTypingDocument);
  const told = useRef(0);
  return (typing) => {
    const now = Date.now();
    if (typing && now - told.current < TYPING_RENEW_MS) return;
    if (!typing && told.current === 0) return;
    told.current = typing ? now : 0;
    // Typing notices are a nicety: a lost one changes nothing that matters.
    setTyping({ variables: { chatId, typing } }).catch(() => undefined);
  };
}
