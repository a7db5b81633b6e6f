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
  report?: { operation?: string | undefined; errorCodes?: string[] };
}

/**
 * The context of one operation, made the same way for HTTP and WebSocket. The signal and the
 * child logger are made when first asked for: most operations need neither.
 */
export function createContext(parts: {
  principal: Principal | null;
  requestId: string;
  signal: () => AbortSignal;
  logger: () => Logger;
  report?: GraphQLContext['report'];
}): GraphQLContext {
  let signal: AbortSignal | undefined;
  let child: Logger | undefined;
  return {
    principal: parts.principal,
    requestId: parts.requestId,
    ...(parts.report ? { report: parts.report } : {}),
    get signal() {
      return (signal ??= parts.signal());
    },
    get logger() {
      return (child ??= parts.logger());
    },
  };
}

/** @Authorized() needs any valid caller; @Authorized(SERVICE_ROLE) a service caller (security/auth.ts). */
export const authChecker: AuthChecker<GraphQLContext> = ({ context }, roles) => {
  authorize(context.principal, roles);
  return true;
};

/** The calling user's id; resolvers behind @Authorized() always have one. */
export function callerId(context: GraphQLContext): string {
  if (!context.principal) throw unauthenticated();
  return context.principal.userId;
}
