// What the row cache needs of a database, whichever one it is (PostgreSQL through pg, or PGlite).

/** An open database: a query runner that can be closed. */
export interface SqlConnection {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
  /** True once it can never answer again (it is opened anew on the next use). */
  broken?(): boolean;
}

/** A database that is opened on first use. */
export interface SqlDatabase {
  /** For logs, without credentials. */
  readonly name: string;
  open(): Promise<SqlConnection>;
}
