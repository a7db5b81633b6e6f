// GraphQL types of distributed locks and counting semaphores.
import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, Float, Int, ObjectType } from 'type-graphql';
import { NAME_RULE } from '../common/validation';
import { CATCH_UP_FIELD } from './topics';

const EXPIRES = "Unix seconds (millisecond precision) by the Redis server's clock, the only clock that decides.";
const FENCE =
  'Grows with every grant of this name. Pass it to the resource you protect and have it refuse any token lower than one it has seen: that refuses a holder that stalled past its timeout.';
const NAME = `${NAME_RULE}. Locks and semaphores have separate names.`;

@ObjectType({ description: 'A held lock. Keep `token` secret: it is what releases and refreshes the lock.' })
export class Lock {
  @Field()
  name!: string;

  @Field({ description: '128 random bits, hex.' })
  token!: string;

  @Field(() => GraphQLSafeInt, { description: FENCE })
  fencingToken!: number;

  @Field(() => Float, { description: `When the lock lapses unless refreshed. ${EXPIRES}` })
  expiresAt!: number;
}

@ObjectType({
  description: 'A held slot of a counting semaphore. Keep `id` secret: it is what releases and refreshes the slot.',
})
export class SemaphoreLease {
  @Field()
  name!: string;

  @Field({ description: '128 random bits, hex.' })
  id!: string;

  @Field(() => GraphQLSafeInt, { description: FENCE })
  fencingToken!: number;

  @Field(() => Float, { description: `When the slot lapses unless refreshed. ${EXPIRES}` })
  expiresAt!: number;
}

@ObjectType({ description: 'Who holds a lock or a semaphore slot; never its token.' })
export class LeaseHolder {
  @Field(() => GraphQLSafeInt)
  fencingToken!: number;

  @Field({ description: 'The service that acquired it (the `sub` of its token).' })
  owner!: string;

  @Field(() => Float, { description: EXPIRES })
  expiresAt!: number;

  @Field(() => Int, { description: "Milliseconds left, by the server's clock when this was read." })
  timeLeftMs!: number;
}

@ObjectType()
export class LockState {
  @Field()
  name!: string;

  @Field(() => LeaseHolder, { nullable: true, description: 'null when the lock is free.' })
  holder!: LeaseHolder | null;

  @Field(() => Int, { description: 'Callers waiting in acquireLock.' })
  waiting!: number;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description: 'The fencing token of the last grant; null if never granted.',
  })
  lastFencingToken!: number | null;
}

@ObjectType()
export class SemaphoreState {
  @Field()
  name!: string;

  @Field(() => Int, { nullable: true, description: 'The limit of the last acquire; null if nobody ever asked.' })
  limit!: number | null;

  @Field(() => [LeaseHolder], { description: 'Holders with time left, soonest to lapse first.' })
  holders!: LeaseHolder[];

  @Field(() => Int, { description: 'Callers waiting in acquireSemaphore.' })
  waiting!: number;

  @Field(() => GraphQLSafeInt, {
    nullable: true,
    description: 'The fencing token of the last grant; null if never granted.',
  })
  lastFencingToken!: number | null;
}

@ObjectType({
  description: 'A lock or semaphore slot was freed, or a queued caller gave up its turn: try to acquire now.',
})
export class LeaseReleased {
  @Field()
  name!: string;

  @Field(() => Float, { description: EXPIRES })
  releasedAt!: number;

  @Field({ description: CATCH_UP_FIELD })
  catchUp!: boolean;
}

@ArgsType()
export class LeaseNameArgs {
  @Field({ description: NAME })
  name!: string;
}

@ArgsType()
export class AcquireLockArgs {
  @Field({ description: NAME })
  name!: string;

  @Field(() => Int, {
    defaultValue: 10_000,
    description:
      'How long to wait for the lock, 0 (one try) to LEASE_MAX_WAIT_MS. Waiters are served in the order they asked.',
  })
  acquireTimeoutMs!: number;

  @Field(() => Int, {
    defaultValue: 10_000,
    description: 'How long the lock is held unless refreshed, 1 to LEASE_MAX_TIMEOUT_MS.',
  })
  lockTimeoutMs!: number;
}

@ArgsType()
export class LockTokenArgs {
  @Field({ description: NAME })
  name!: string;

  @Field({ description: 'The token from acquireLock.' })
  token!: string;
}

@ArgsType()
export class RefreshLockArgs extends LockTokenArgs {
  @Field(() => Int, {
    nullable: true,
    description: 'New hold time from now, 1 to LEASE_MAX_TIMEOUT_MS; defaults to the one it was acquired with.',
  })
  lockTimeoutMs?: number | null;
}

@ArgsType()
export class AcquireSemaphoreArgs {
  @Field({ description: NAME })
  name!: string;

  @Field(() => Int, { description: 'Most holders at once, 1 to SEMAPHORE_MAX_LIMIT.' })
  limit!: number;

  @Field(() => Int, {
    defaultValue: 10_000,
    description: 'How long the slot is held unless refreshed, 1 to LEASE_MAX_TIMEOUT_MS.',
  })
  timeoutMs!: number;

  @Field(() => Int, {
    defaultValue: 0,
    description:
      'How long to wait for a slot, 0 (fail fast, the default) to LEASE_MAX_WAIT_MS. Callers are served in the order they asked.',
  })
  waitMs!: number;
}

@ArgsType()
export class SemaphoreLeaseArgs {
  @Field({ description: NAME })
  name!: string;

  @Field({ description: 'The id from acquireSemaphore.' })
  id!: string;
}
