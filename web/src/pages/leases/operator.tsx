// Every lease operation is for service callers: say so plainly instead of showing FORBIDDEN.
import { CombinedGraphQLErrors } from '@apollo/client';
import { ErrorLine } from '../../errors';

export function OperatorOnly() {
  return (
    <p className="notice" role="note">
      Locks and semaphores are for operators: sign in as operator (service role) to see and use them.
    </p>
  );
}

function isForbidden(error: unknown): boolean {
  return CombinedGraphQLErrors.is(error) && error.errors.some((e) => e.extensions?.code === 'FORBIDDEN');
}

/** An API error with its code, or the operator notice when the token lacks the service role. */
export function LeaseError({ error }: { error: unknown }) {
  if (isForbidden(error)) return <OperatorOnly />;
  return <ErrorLine error={error} />;
}
