// Cursor paging: the cursors of the pages before this one, so "previous" goes back exactly.
import { useState } from 'react';

export interface Pages<C> {
  /** The cursor this page starts after; undefined for the first page. */
  after: C | undefined;
  number: number;
  next: (cursor: C) => void;
  previous: () => void;
}

export function usePages<C>(): Pages<C> {
  const [stack, setStack] = useState<C[]>([]);
  return {
    after: stack[stack.length - 1],
    number: stack.length + 1,
    next: (cursor) => setStack((before) => [...before, cursor]),
    previous: () => setStack((before) => before.slice(0, -1)),
  };
}

export function Pager<C>({ pages, last, full }: { pages: Pages<C>; last: C | undefined; full: boolean }) {
  if (pages.number === 1 && !full) return null;
  return (
    <div className="pager">
      <button type="button" disabled={pages.number === 1} onClick={pages.previous}>
        Previous page
      </button>
      <span className="muted">page {pages.number}</span>
      <button
        type="button"
        disabled={!full || last === undefined}
        onClick={() => last !== undefined && pages.next(last)}
      >
        Next page
      </button>
    </div>
  );
}
