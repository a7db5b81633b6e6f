// Errors a client may see, each with a stable code. Repositories and resolvers throw these;
// src/schema/format-error.ts turns them into GraphQL errors with `extensions.code`.

export type ErrorCode =
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'STORE_UNAVAILABLE'
  | 'RATE_LIMITED'
  | 'PAYLOAD_TOO_LARGE'
  | 'INTERNAL_SERVER_ERROR';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badInput = (message: string, argument?: string): AppError =>
  new AppError('BAD_USER_INPUT', message, argument === undefined ? {} : { argument });

export const unauthenticated = (message = 'Authentication required: send a valid bearer token'): AppError =>
  new AppError('UNAUTHENTICATED', message);

export const forbidden = (message = 'You are not allowed to do this'): AppError => new AppError('FORBIDDEN', message);

export const storeUnavailable = (): AppError =>
  new AppError('STORE_UNAVAILABLE', 'The data store is unavailable; retry shortly');

export const notFound = (message: string, argument?: string): AppError =>
  new AppError('NOT_FOUND', message, argument === undefined ? {} : { argument });

export const conflict = (message: string, argument?: string): AppError =>
  new AppError('CONFLICT', message, argument === undefined ? {} : { argument });
