// Documents checked by parsing and validation, by their whole text, for the HTTP fast path and
// the WebSocket server together: a text sent again (every call of an app that sends text, every
// pull of every subscriber, a client looping on a stale query) is not parsed and validated again,
// and callers asking the same thing share one parsed document. A refusal is kept as well as a
// document: no rule depends on the caller, so a text's verdict is the same for everyone. Bounded by the total length of the texts kept, so the bound holds
// whatever the documents; a text over a quarter of it is checked every time it comes, never kept.
// A text used again moves to the back, so a flood of distinct documents (each of which its sender
// has to get past the rate limits and every validation rule) turns the app's hot documents over
// only when it outpaces them, and then costs each one parse and validation.
import type { DocumentNode, GraphQLError } from 'graphql';

/**
 * Parsed documents take about 70 bytes of heap per character of their text (tokens and
 * locations included, which error locations need), and up to about 150 for documents dense in
 * tokens (a field name repeated hundreds of times): 35-75 MiB here.
 */
export const DOCUMENT_CACHE_CHARS = 512 * 1024;

export interface DocumentCheck {
  /** Parses with the token limit, failing with a GraphQLError (document-limits.ts). */
  parse(text: string): DocumentNode;
  /** Every rule, limits included (operation-check.ts). */
  validate(document: DocumentNode): readonly GraphQLError[];
}

export class DocumentCache {
  private readonly entries = new Map<string, DocumentNode | readonly GraphQLError[]>();
  private size = 0;

  constructor(
    private readonly maxChars: number,
    private readonly check: DocumentCheck,
  ) {}

  /** The document of a text that may run, parsed and validated the first time; or what is wrong with it. */
  valid(text: string): DocumentNode | readonly GraphQLError[] {
    const kept = this.entries.get(text);
    if (kept) {
      this.entries.delete(text);
      this.entries.set(text, kept);
      return kept;
    }
    let verdict: DocumentNode | readonly GraphQLError[];
    try {
      const document = this.check.parse(text);
      const errors = this.check.validate(document);
      verdict = errors.length > 0 ? errors : document;
    } catch (error) {
      verdict = [error as GraphQLError];
    }
    this.keep(text, verdict);
    return verdict;
  }

  private keep(text: string, verdict: DocumentNode | readonly GraphQLError[]): void {
    if (text.length > this.maxChars / 4) return;
    this.entries.set(text, verdict);
    this.size += text.length;
    for (const [oldest] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(oldest);
      this.size -= oldest.length;
    }
  }

  /** Whether a text's verdict is kept (without counting as a use). */
  has(text: string): boolean {
    return this.entries.has(text);
  }

  get count(): number {
    return this.entries.size;
  }

  /** The total length of the texts kept. */
  get chars(): number {
    return this.size;
  }
}
