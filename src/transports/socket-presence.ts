// A socket's share in its device's presence for push: a socket whose connection_init names a
// device holds it (PushPresence) while one of its inboxChanged subscriptions runs, so no push goes
// to a device that is being told over the socket.
import { getOperationAST, Kind, OperationTypeNode, type ExecutionArgs, type SelectionSetNode } from 'graphql';
import { AppError } from '../common/errors';
import { validName } from '../common/validation';
import type { PushPresence } from '../redis/push/presence';

/** The subscription whose running marks its device online. */
const PRESENCE_FIELD = 'inboxChanged';

/**
 * `connectionParams.device`, checked as the chat operations check a device name: undefined when
 * not given, or why it cannot be taken.
 */
export function deviceOf(
  params: Record<string, unknown> | undefined,
): { device: string | undefined; problem?: undefined } | { device?: undefined; problem: string } {
  const device = params?.device;
  if (device === undefined || device === null) return { device: undefined };
  if (typeof device !== 'string') return { problem: 'connectionParams.device must be a string' };
  try {
    return { device: validName(device, 'connectionParams.device') };
  } catch (error) {
    if (error instanceof AppError) return { problem: error.message };
    throw error;
  }
}

/** One socket's running inboxChanged subscriptions, each a hold of the socket's device. */
export class SocketPresence {
  private readonly holding = new Set<string>();
  private closed = false;

  constructor(
    private readonly presence: Pick<PushPresence, 'hold' | 'release'>,
    private readonly user: string,
    private readonly device: string,
  ) {}

  /**
   * Operation `id` has started a stream: when it is an inboxChanged subscription, the device is
   * held, written to Redis before this resolves when it is the device's first hold.
   */
  async started(id: string, args: ExecutionArgs): Promise<void> {
    if (this.closed || this.holding.has(id) || !subscribesToPresence(args)) return;
    this.holding.add(id);
    await this.presence.hold(this.user, this.device);
  }

  /** Operation `id` has ended (completed by either side, or failed): its hold, if any, goes. */
  ended(id: string): void {
    if (this.holding.delete(id)) void this.presence.release(this.user, this.device);
  }

  /** The socket closed: every hold goes, and operations that start late hold nothing. */
  close(): void {
    this.closed = true;
    for (const id of [...this.holding]) this.ended(id);
  }
}

/** Whether the operation is a subscription to PRESENCE_FIELD (a subscription has one root field). */
function subscribesToPresence(args: ExecutionArgs): boolean {
  const operation = getOperationAST(args.document, args.operationName);
  if (operation?.operation !== OperationTypeNode.SUBSCRIPTION) return false;
  const fragments = new Map(
    args.document.definitions.flatMap((definition) =>
      definition.kind === Kind.FRAGMENT_DEFINITION ? [[definition.name.value, definition.selectionSet] as const] : [],
    ),
  );
  const rootFields = (selectionSet: SelectionSetNode, seen: Set<string>): string[] =>
    selectionSet.selections.flatMap((selection) => {
      if (selection.kind === Kind.FIELD) return [selection.name.value];
      if (selection.kind === Kind.INLINE_FRAGMENT) return rootFields(selection.selectionSet, seen);
      const name = selection.name.value;
      const spread = fragments.get(name);
      if (!spread || seen.has(name)) return [];
      return rootFields(spread, new Set([...seen, name]));
    });
  const fields = rootFields(operation.selectionSet, new Set());
  return fields.length > 0 && fields.every((field) => field === PRESENCE_FIELD);
}
