// How chats and entries read on the page.

/** A chat's name: its other members (the API names chats by id only). */
export function chatTitle(members: string[], me: string): string {
  const others = members.filter((member) => member !== me);
  if (others.length === 0) return 'Just you';
  if (others.length <= 3) return others.join(', ');
  return `${others.slice(0, 3).join(', ')} +${others.length - 3}`;
}

/** A time (unix seconds from the Redis server's clock) as the reader's clock shows it; the day too when not today. */
export function clock(ts: number): string {
  const at = new Date(ts * 1000);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === new Date().toDateString() ? time : `${at.toLocaleDateString()} ${time}`;
}

/** The server's limits (MESSAGE_MAX_LENGTH and a user id's length, by default). */
export const MAX_MESSAGE = 4000;
export const MAX_NAME = 128;
