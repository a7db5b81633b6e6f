// Trusted documents: operations registered ahead of time in a manifest of sha256 -> document
// text (the JSON the GraphQL Codegen client preset writes with `persistedDocuments`; `npm run
// schema` writes the project's own to src/generated/client/). A client may send the hash alone
// in Apollo's `extensions.persistedQuery` shape instead of the text, and with
// TRUSTED_DOCUMENTS=require a user caller may run registered documents only (a safelist: a
// stolen user token cannot run a document the apps never send). Service callers, backends we
// run, may send any document. The same decision serves HTTP (trustedDocumentsPlugin) and
// WebSocket (transports/websocket.ts).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, parse, type DocumentNode } from 'graphql';
import type { GraphQLContext } from '../schema/context';
import type { Principal } from './auth';
// Imported, not read from a path: the compiler emits it beside the code, wherever that is built.
import projectManifest from '../generated/client/persisted-documents.json';
import webAppManifest from '../generated/web/persisted-documents.json';

export type TrustedDocumentsMode = 'allow' | 'require';

export interface TrustedDocumentsSettings {
  mode: TrustedDocumentsMode;
  /**
   * TRUSTED_DOCUMENTS_FILE; unset: the project's own manifests, the tests' operations
   * (src/generated/client) and the web app's (src/generated/web). A file of one's own replaces
   * both: add the web app's entries to it where the app is served with TRUSTED_DOCUMENTS=require.
   */
  file: string | undefined;
}

const MAX_DOCUMENTS = 10_000;
const MAX_MANIFEST_BYTES = 20 * 1024 * 1024;
const HASH = /^(?:sha256:)?([0-9a-f]{64})$/;

/** What a request asks to run once its persisted-query extension is read. */
export type Resolution =
  /** Run this text (the registered one when the request named a hash). */
  | { query: string }
  /** Refused: the error, and the HTTP status it is answered with over HTTP. */
  | { error: GraphQLError; status: number };

export class TrustedDocuments {
  /** Hash (hex) -> text. */
  private readonly texts = new Map<string, string>();
  /** Text -> its parsed, validated document (loadTrustedDocuments): every registered text. */
  private readonly documents = new Map<string, DocumentNode>();

  private constructor(readonly mode: TrustedDocumentsMode) {}

  /** Reads and checks a manifest: the start fails on one that is not what it says it is. */
  static load(settings: TrustedDocumentsSettings): TrustedDocuments {
    const trusted = new TrustedDocuments(settings.mode);
    const where = settings.file ?? 'the project manifest';
    let manifest: unknown = projectManifest;
    if (settings.file !== undefined) {
      const size = fs.statSync(settings.file).size;
      if (size > MAX_MANIFEST_BYTES)
        throw new Error(`TRUSTED_DOCUMENTS_FILE ${where} is over ${MAX_MANIFEST_BYTES} bytes`);
      manifest = JSON.parse(fs.readFileSync(settings.file, 'utf8'));
    }
    if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest))
      throw new Error(`TRUSTED_DOCUMENTS_FILE ${where} is not an object of sha256 hash -> document`);
    const entries = Object.entries(manifest);
    if (entries.length > MAX_DOCUMENTS)
      throw new Error(`TRUSTED_DOCUMENTS_FILE ${where} has over ${MAX_DOCUMENTS} documents`);
    if (settings.file === undefined) entries.push(...Object.entries(webAppManifest));
    for (const [key, text] of entries) {
      const hash = HASH.exec(key)?.[1];
      if (!hash || typeof text !== 'string' || sha256(text) !== hash)
        throw new Error(`TRUSTED_DOCUMENTS_FILE ${where}: "${key.slice(0, 80)}" is not the sha256 of its document`);
      trusted.texts.set(hash, text);
    }
    return trusted;
  }

  /** Takes a document back out, as if it had never been registered. */
  forget(text: string): void {
    this.documents.delete(text);
    for (const [hash, registered] of this.texts) if (registered === text) this.texts.delete(hash);
  }

  get count(): number {
    return this.texts.size;
  }

  /** Every registered text, to be parsed and validated once at start (loadTrustedDocuments). */
  registered(): IterableIterator<string> {
    return this.texts.values();
  }

  /** Keeps the parsed, validated document of a registered text. */
  ready(text: string, document: DocumentNode): void {
    this.documents.set(text, document);
  }

  /** The document of a registered text, parsed and validated at start. */
  document(text: string): DocumentNode | undefined {
    return this.documents.get(text);
  }

  /**
   * What to run for a request's `query` and `extensions`, or the error to answer: a hash that is
   * not registered (PERSISTED_QUERY_NOT_FOUND, as Apollo answers it, so Apollo Client's
   * persisted-query link sends the text next), a hash that is not the text's, or, when
   * registered documents are required, a user's document that is not one of them.
   */
  resolve(query: unknown, extensions: unknown, principal: Principal | null): Resolution {
    const persisted = (extensions as { persistedQuery?: unknown } | null | undefined)?.persistedQuery;
    if (persisted === undefined) {
      // A text is looked up as it is, not hashed: a safelist costs no more than a Map lookup.
      if (this.mode === 'require' && !principal?.isService && !(typeof query === 'string' && this.documents.has(query)))
        return notInList();
      return { query: query as string };
    }
    const { version, sha256Hash } = (persisted ?? {}) as { version?: unknown; sha256Hash?: unknown };
    const hash = typeof sha256Hash === 'string' ? HASH.exec(sha256Hash)?.[1] : undefined;
    if (version !== 1 || hash === undefined) {
      return refusal(
        'BAD_REQUEST',
        'extensions.persistedQuery must be { "version": 1, "sha256Hash": "<64 hex digits>" }',
        400,
      );
    }
    const text = this.texts.get(hash);
    if (query !== undefined && query !== '' && query !== text) {
      if (typeof query !== 'string' || sha256(query) !== hash)
        return refusal('BAD_REQUEST', 'provided sha does not match query', 400);
      // The text of a hash we do not hold: Apollo's way of registering one; we only run it.
      if (this.mode === 'require' && !principal?.isService) return notInList();
      return { query };
    }
    // Apollo's answer to a hash it does not hold, which Apollo Client's persisted-query link reads.
    if (text === undefined) return refusal('PERSISTED_QUERY_NOT_FOUND', 'PersistedQueryNotFound', 200);
    return { query: text };
  }
}

/**
 * The manifest, each document parsed and validated once, here. A document the schema refuses
 * stops the start. One over this server's document limits (GRAPHQL_MAX_*) stops it where only
 * registered documents may run (an app's operation would be refused at every call); otherwise it
 * is left out with a warning, as the same text sent by a client would be refused.
 */
export function loadTrustedDocuments(
  settings: TrustedDocumentsSettings,
  check: {
    /** Parses with the token limit (throws past it, or on a syntax error). */
    parse(text: string): DocumentNode;
    /** Every rule, limits included (operation-check.ts). */
    validate(document: DocumentNode): readonly GraphQLError[];
    /** The document limits' rules alone (document-limits.ts). */
    limitErrors(document: DocumentNode): readonly GraphQLError[];
  },
  warn: (message: string) => void,
): TrustedDocuments {
  const trusted = TrustedDocuments.load(settings);
  const where = `${settings.file ?? 'the project manifest'} (TRUSTED_DOCUMENTS_FILE)`;
  const refuse = (text: string, why: string): Error =>
    new Error(`a trusted document of ${where} is refused: ${why}\n${text.slice(0, 200)}`);
  for (const text of [...trusted.registered()]) {
    let overLimit: string;
    try {
      const document = check.parse(text);
      const errors = check.validate(document);
      if (errors.length === 0) {
        trusted.ready(text, document);
        continue;
      }
      const limits = new Set(check.limitErrors(document).map((error) => error.message));
      const refused = errors.find((error) => !limits.has(error.message));
      if (refused) throw refuse(text, refused.message);
      overLimit = errors[0].message;
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      // The token limit, or a document that does not parse at all.
      try {
        parse(text);
      } catch (syntax) {
        throw refuse(text, (syntax as Error).message);
      }
      overLimit = error.message;
    }
    const message = `a trusted document of ${where} is over a GRAPHQL_MAX_* limit: ${overLimit}\n${text.slice(0, 200)}`;
    if (settings.mode === 'require') throw new Error(message);
    warn(`${message}\nIt is left out; raise the limit to register it.`);
    trusted.forget(text);
  }
  return trusted;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function refusal(code: string, message: string, status: number): { error: GraphQLError; status: number } {
  return { error: new GraphQLError(message, { extensions: { code } }), status };
}

const notInList = (): { error: GraphQLError; status: number } =>
  refusal(
    'PERSISTED_QUERY_NOT_IN_LIST',
    'This server runs registered documents only (TRUSTED_DOCUMENTS=require): send the hash of one',
    400,
  );

/** What Apollo parses in place of a refused request: a refusal must not run, or even parse, its document. */
const REFUSED_PLACEHOLDER = '{ __typename }';

/**
 * The HTTP side: puts the registered text in place of a hash before Apollo reads the request
 * (Apollo's own persisted queries stay off), or refuses it. Both HTTP paths, GET and POST, go
 * through Apollo, so both get it. Apollo answers an error thrown from didResolveOperation as a
 * request error with the status it names (an error thrown earlier would be a 500), so a refused
 * request runs up to there on a placeholder document instead of its own.
 */
export function trustedDocumentsPlugin(trusted: TrustedDocuments): ApolloServerPlugin<GraphQLContext> {
  return {
    // Not async: the request must be rewritten before Apollo reads it, which it does as soon as
    // every requestDidStart has been called.
    requestDidStart({ request, contextValue }) {
      const outcome = trusted.resolve(request.query, request.extensions, contextValue.principal);
      if (request.extensions?.persistedQuery !== undefined) {
        const { persistedQuery: _read, ...rest } = request.extensions;
        request.extensions = rest;
      }
      if (!('error' in outcome)) {
        request.query = outcome.query;
        return Promise.resolve(undefined);
      }
      request.query = REFUSED_PLACEHOLDER;
      request.operationName = undefined;
      const { message, extensions } = outcome.error;
      const refusal = new GraphQLError(message, { extensions: { ...extensions, http: { status: outcome.status } } });
      return Promise.resolve({
        didResolveOperation: () => Promise.reject(refusal),
      });
    },
  };
}
