// The refusals of an upload, the same whether the append script or the HTTP route finds them.
import { AppError } from '../../common/errors';

/** The upload holds `lines` lines: the sender goes on from there. */
export const uploadOffset = (lines: number, argument: string): AppError =>
  new AppError('CONFLICT', `the upload holds ${lines} lines: send from line ${lines}`, { argument, lines });

export const uploadTooLarge = (limit: number, lines?: number): AppError =>
  new AppError('PAYLOAD_TOO_LARGE', `the upload would exceed LOCATION_MAX_UPLOAD_BYTES (${limit} bytes)`, {
    limit,
    ...(lines === undefined ? {} : { lines }),
  });
