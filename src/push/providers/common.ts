// What the three senders share: a deadline that is the caller's signal or the push timeout,
// Retry-After, the ids-and-counts body, collapse keys cut to a provider's limit, key files read
// with errors that name their setting.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { PushMessage, PushResult } from '../types';

export interface Deadline {
  signal: AbortSignal;
  /** Why the signal fired: the push timeout, or the caller gave up. */
  reason(): string;
  done(): void;
}

/** Aborts after `timeoutMs` or when `outer` aborts; done() clears the timer (thousands run at once). */
export function deadline(timeoutMs: number, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  let why = 'aborted';
  const timer = setTimeout(() => {
    why = `no answer within ${timeoutMs} ms`;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    reason: () => why,
    done() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

/** Retry-After (RFC 9110: seconds or an HTTP date) in ms, undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | null | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text === null || text.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** 429 and 5xx are the provider's trouble, tried again; the rest of 4xx will not get better. */
export function statusResult(status: number, what: string, retryAfter?: number): PushResult {
  if (status === 429 || status >= 500) {
    return retryAfter === undefined
      ? { outcome: 'retry', reason: what }
      : { outcome: 'retry', reason: what, retryAfterMs: retryAfter };
  }
  return { outcome: 'rejected', reason: what };
}

/** What every push says, whichever provider carries it: ids and counts, nothing a person wrote. */
export function pushBody(message: PushMessage): { chatId?: string; mailbox: boolean; upTo: number; unread: number } {
  const { chatId, mailbox, upTo, unread } = message;
  return chatId === undefined ? { mailbox, upTo, unread } : { chatId, mailbox, upTo, unread };
}

/** The collapse key as is when it fits `maxBytes` of `allowed` characters, else a digest that does. */
export function fitCollapseKey(key: string, maxBytes: number, allowed = /^[\x21-\x7e]*$/): string {
  if (Buffer.byteLength(key) <= maxBytes && allowed.test(key)) return key;
  return createHash('sha256').update(key).digest('base64url').slice(0, maxBytes);
}

/** A file a setting names, or an Error that names the setting. */
export async function readSettingFile(setting: string, file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new Error(`${setting}: cannot read ${file} (${code})`, { cause: error });
  }
}

/** A short, single-line excerpt of a provider's answer for a reason; never a whole body. */
export function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

/** The message of whatever was thrown, with its code (ECONNRESET, ...) when it has one. */
export function describeError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
