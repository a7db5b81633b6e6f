// Errors as the API reports them: its message and its code (extensions.code), never a stack.
import { CombinedGraphQLErrors } from '@apollo/client';

export function errorText(error: unknown): string {
  if (CombinedGraphQLErrors.is(error)) {
    return error.errors.map((e) => `${e.message} (${String(e.extensions?.code ?? 'ERROR')})`).join('; ');
  }
  if (error instanceof Error) return error.message;
  return String(error);
}

export function ErrorLine({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <p className="error" role="alert">
      {errorText(error)}
    </p>
  );
}
