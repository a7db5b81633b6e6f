// Documents that passed parsing and validation, by their text, so a WebSocket operation sent
// again (every pull of every subscriber) is not parsed and validated again, and subscribers
// asking the same thing share one parsed document. Apollo keeps such a cache over HTTP.
// Bounded by the total length of the texts kept, since one text may be as long as a frame;
// the oldest entries go first.
import type { DocumentNode } from 'graphql';

export class DocumentCache {
  private readonly entries = new Map<string, DocumentNode>();
  private size = 0;

  constructor(private readonly maxChars: number) {}

  get(text: string): DocumentNode | undefined {
    return this.entries.get(text);
  }

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
}
