// What every resolver gets, over HTTP and WebSocket alike, and the one check behind @Authorized.
import type { AuthChecker } from 'type-graphql';
import { isExpired, SERVICE_ROLE, type Principal } from '../security/auth';
import { forbidden, unauthenticated } from '../common/errors';
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

/**
 * @Authorized() needs any valid caller; @Authorized(SERVICE_ROLE) a service caller. Any other role
 * must be in the token's roles: a role this checker did not know would otherwise let anyone in.
 */
export const authChecker: AuthChecker<GraphQLContext> = ({ context }, roles) => {
  const principal = context.principal;
  if (!principal || isExpired(principal)) throw unauthenticated();
  for (const role of roles) {
    if (role === SERVICE_ROLE && !principal.isService) {
      throw forbidden('This operation is for service callers (a token whose roles include "service")');
    }
    if (role !== SERVICE_ROLE && !principal.roles.includes(role))
      throw forbidden(`This operation needs the role "${role}"`);
  }
  return true;
};

/** The calling user's id; resolvers behind @Authorized() always have one. */
export function callerId(context: GraphQLContext): string {
  if (!context.principal) throw unauthenticated();
  return context.principal.userId;
}
