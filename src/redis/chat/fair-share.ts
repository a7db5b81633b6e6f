// How one fetch's limit is split between a member's chats (cursors.ts).

/**
 * Splits `limit` between chats with `pending[i]` messages each: every chat gets an equal share,
 * and what a chat does not need goes to the others (water-filling), so one busy chat cannot
 * starve the rest. When there is less than one message per chat, the chats from `start` onwards
 * (wrapping round) go first; callers pick `start` at random so that no chat always waits.
 */
export function shareFairly(pending: number[], limit: number, start = 0): number[] {
  const quotas = pending.map(() => 0);
  const n = pending.length;
  let left = limit;
  let open = pending.map((_, i) => (start + i) % n).filter((i) => pending[i] > 0);
  while (left > 0 && open.length > 0) {
    const share = Math.max(1, Math.floor(left / open.length));
    for (const i of open) {
      const give = Math.min(share, pending[i] - quotas[i], left);
      quotas[i] += give;
      left -= give;
      if (left === 0) break;
    }
    open = open.filter((i) => quotas[i] < pending[i]);
  }
  return quotas;
}
