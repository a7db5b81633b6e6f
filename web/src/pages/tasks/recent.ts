// The queues an operator opened lately, newest first, kept in this browser (localStorage) so the
// dashboard opens on the last one and offers the others with one click.
const KEY = 'ria.recentQueues';
const KEEP = 8;
/** A queue name, as the API takes it. */
export const QUEUE_NAME_MAX = 128;

export function recentQueues(): string[] {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    if (!Array.isArray(stored)) return [];
    return stored
      .filter((name): name is string => typeof name === 'string' && name !== '' && name.length <= QUEUE_NAME_MAX)
      .slice(0, KEEP);
  } catch {
    return []; // another app's value, or a broken one: start afresh
  }
}

export function rememberQueue(name: string): string[] {
  const next = [name, ...recentQueues().filter((other) => other !== name)].slice(0, KEEP);
  localStorage.setItem(KEY, JSON.stringify(next));
  return next;
}
