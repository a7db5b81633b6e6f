// Label values with a bound: a metric's series are the product of its labels' values, so no label
// takes a value a caller chose freely (a user id, an operation's text), and each is capped.
export const OTHER = 'other';

/** The first `max` distinct values keep series of their own; later ones share `other`. */
export class BoundedLabel {
  private readonly seen = new Set<string>();

  constructor(private readonly max: number) {}

  of(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.max) return OTHER;
    this.seen.add(value);
    return value;
  }
}

/** Operations with series of their own; the rest are `other`. */
const MAX_OPERATIONS = 200;
/** Error codes with series of their own (the product has about 20). */
const MAX_CODES = 50;
const CODE = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * The operation label: the name of a registered document (security/trusted-documents.ts), whose
 * names the deployment chose; `unregistered` for any other document, whatever it calls itself;
 * `anonymous` for a registered document without a name; `none` when no document was read (the
 * gate refused the request first).
 */
export class OperationLabels {
  private readonly names = new BoundedLabel(MAX_OPERATIONS);

  of(name: string | undefined, registered: boolean | undefined): string {
    if (registered === undefined) return 'none';
    if (!registered) return 'unregistered';
    return name === undefined ? 'anonymous' : this.names.of(name);
  }
}

/** The outcome label: `ok`, or an error code shaped as the product's are (UPPER_SNAKE), capped. */
export class CodeLabels {
  private readonly codes = new BoundedLabel(MAX_CODES);

  of(code: unknown): string {
    if (code === undefined) return 'ok';
    return typeof code === 'string' && CODE.test(code) ? this.codes.of(code) : OTHER;
  }
}
