// What every resolver gets, over HTTP and WebSocket alike, and the one check behind @Authorized.
import type { AuthChecker } from 'type-graphql';
import { authorize, type Principal } from '../security/auth';
import { unauthenticated } from '../common/errors';
import type { Logger } from '../common/logger';

export interface GraphQLContext {
  /** null for a caller without a token. */
  principal: Principal | null;
  requestId: string;
  logger: Logger;
  /** Aborted when the client goes away (HTTP request closed, WebSocket closed): stop waiting. */
  signal?: AbortSignal;
  /** Over HTTP: what the request's log line reports about the operation. */
  report?: { operation?: string | undefined; registered?: boolean; errorCodes?: string[] };
}

/** How an operation's signal and child logger are made, and what was made (shared by its copies). */
interface Makers {
  signal: () => AbortSignal;
  logger: () => Logger;
  madeSignal?: AbortSignal;
  madeLogger?: Logger;
}

/**
 * The context of one operation, made the same way for HTTP and WebSocket. The signal and the
 * child logger are made when first asked for: most operations need neither. They are getters on
 * the prototype, not on the object: Apollo copies the context of every request with
 * Object.assign, which reads (and so would make) every own getter, and building an
 * AbortController, a close listener and a pino child for each request cost 25-35 µs of the
 * 90-250 µs an operation took (docs/performance.md).
 */
class OperationContext implements GraphQLContext {
  readonly report?: GraphQLContext['report'];

  constructor(
    readonly principal: Principal | null,
    readonly requestId: string,
    private readonly makers: Makers,
    report: GraphQLContext['report'],
  ) {
    if (report) this.report = report;
  }

  get signal(): AbortSignal {
    return (this.makers.madeSignal ??= this.makers.signal());
  }

  get logger(): Logger {
    return (this.makers.madeLogger ??= this.makers.logger());
  }
}

export function createContext(parts: {
  principal: Principal | null;
  requestId: string;
  signal: () => AbortSignal;
  logger: () => Logger;
  report?: GraphQLContext['report'];
}): GraphQLContext {
  return new OperationContext(
    parts.principal,
    parts.requestId,
    { signal: parts.signal, logger: parts.logger },
    parts.report,
  );
}

/** @Authorized() needs any valid caller; @Authorized(SERVICE_ROLE) a service caller (security/auth.ts). */
export const authChecker: AuthChecker<GraphQLContext> = ({ context }, roles) => {
  authorize(context.principal, roles);
  return true;
};

/** The calling user's id; resolvers behind @Authorized() always have one. */
export function callerId(context: GraphQLContext): string {
  return callerPrincipal(context).userId;
}

export function callerPrincipal(context: GraphQLContext): Principal {
  if (!context.principal) throw unauthenticated();
  return context.principal;
}
