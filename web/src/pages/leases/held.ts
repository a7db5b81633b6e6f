// The leases this tab acquired, with the secret (lock token, semaphore slot id) that releases
// them: the API never shows a secret again, so the tab keeps it (sessionStorage, like the
// session itself) across page changes and reloads until the lease is released or lost.
import { useSyncExternalStore } from 'react';

export type LeaseKind = 'lock' | 'semaphore';

export interface HeldLease {
  kind: LeaseKind;
  name: string;
  /** The lock's token or the semaphore slot's id. */
  secret: string;
  fencingToken: number;
  /** Unix seconds, as the server said at the last acquire or refresh. */
  expiresAt: number;
}

const KEY = 'ria.leases';
const listeners = new Set<() => void>();
let cached: HeldLease[] | null = null;

function read(): HeldLease[] {
  if (cached !== null) return cached;
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY) ?? '[]') as unknown;
    cached = Array.isArray(stored) ? (stored as HeldLease[]) : [];
  } catch {
    cached = [];
  }
  return cached;
}

function write(next: HeldLease[]): void {
  cached = next;
  sessionStorage.setItem(KEY, JSON.stringify(next));
  listeners.forEach((listener) => listener());
}

const same = (a: HeldLease, b: Pick<HeldLease, 'kind' | 'name' | 'secret'>): boolean =>
  a.kind === b.kind && a.name === b.name && a.secret === b.secret;

export const held = {
  /** Adds a lease, or replaces the one with the same secret (a refresh). */
  keep(lease: HeldLease): void {
    write([...read().filter((other) => !same(other, lease)), lease]);
  },
  forget(lease: Pick<HeldLease, 'kind' | 'name' | 'secret'>): void {
    write(read().filter((other) => !same(other, lease)));
  },
};

/** This tab's leases of one lock or semaphore, in the order they were granted. */
export function useHeld(kind: LeaseKind, name: string): HeldLease[] {
  const all = useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, read);
  return all
    .filter((lease) => lease.kind === kind && lease.name === name)
    .sort((a, b) => a.fencingToken - b.fencingToken);
}
