// Documents that passed parsing and validation, by their whole text, for the HTTP fast path and
// the WebSocket server together: a text sent again (every call of an app that sends text, every
// pull of every subscriber) is not parsed and validated again, and callers asking the same thing
// share one parsed document. Bounded by the total length of the texts kept, so the bound holds
// whatever the documents; a text over a quarter of it is checked every time it comes, never kept.
// A text used again moves to the back, so a flood of distinct documents (each of which its sender
// has to get past the rate limits and every validation rule) turns the app's hot documents over
// only when it outpaces them, and then costs each one parse and validation.
import type { DocumentNode, GraphQLError } from 'graphql';

/**
 * Parsed documents take about 70 bytes of heap per character of their text (tokens and
 * locations included, which error locations need): about 70 MiB here.
 */
export const DOCUMENT_CACHE_CHARS = 1024 * 1024;

export interface DocumentCheck {
  /** Parses with the token limit, failing with a GraphQLError (document-limits.ts). */
  parse(text: string): DocumentNode;
  /** Every rule, limits included (operation-check.ts). */
  validate(document: DocumentNode): readonly GraphQLError[];
}

export class DocumentCache {
  private readonly entries = new Map<string, DocumentNode>();
  private size = 0;

  constructor(
    private readonly maxChars: number,
    private readonly check: DocumentCheck,
  ) {}

  /** The document of a text that may run, parsed and validated the first time; or what is wrong with it. */
  valid(text: string): DocumentNode | readonly GraphQLError[] {
    const kept = this.get(text);
    if (kept) return kept;
    let document: DocumentNode;
    try {
      document = this.check.parse(text);
    } catch (error) {
      return [error as GraphQLError];
    }
    const errors = this.check.validate(document);
    if (errors.length > 0) return errors;
    this.set(text, document);
    return document;
  }

  get(text: string): DocumentNode | undefined {
    const document = this.entries.get(text);
    if (document) {
      this.entries.delete(text);
      this.entries.set(text, document);
    }
    return document;
  }

  /** Keeps a document that passed the check. */
  set(text: string, document: DocumentNode): void {
    if (text.length > this.maxChars / 4 || this.entries.has(text)) return;
    this.entries.set(text, document);
    this.size += text.length;
    for (const [oldest] of this.entries) {
      if (this.size <= this.maxChars) break;
      this.entries.delete(oldest);
      this.size -= oldest.length;
    }
  }

  get count(): number {
    return this.entries.size;
  }

  /** The total length of the texts kept. */
  get chars(): number {
    return this.size;
  }
}
