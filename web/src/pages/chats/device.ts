// This browser's device id for chat cursors (pendingMessages and markSeen with `device`): made
// once and kept in localStorage, so a reload or a new tab is the same device and the server's
// chatDevices lists it once. Another browser, or another browser profile, is another device.
const KEY = 'ria.device';
const SHAPE = /^web-[a-z0-9]{16}$/;

export function deviceId(): string {
  const stored = localStorage.getItem(KEY);
  if (stored !== null && SHAPE.test(stored)) return stored;
  const made = `web-${randomText(16)}`;
  localStorage.setItem(KEY, made);
  return made;
}

/** `length` characters of [a-z0-9] from the browser's strong random source. */
export function randomText(length: number): string {
  const digits = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (byte) => digits[byte % digits.length]).join('');
}
