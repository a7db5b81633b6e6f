// GraphQL types of task queues.
import { JSONScalar } from './json-scalar';
import { ArgsType, Field, Float, ID, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TASK_PRIORITIES, type TaskPriority as Priority } from '../redis/keys';
import { TASK_STATES, type TaskState as State } from '../redis/task';
import { NAME_RULE } from '../common/validation';
import { enumOf } from './enums';

export const TaskPriority = enumOf(TASK_PRIORITIES);
const TaskState = enumOf(TASK_STATES);

registerEnumType(TaskPriority, { name: 'TaskPriority', description: 'Workers take HIGH before NORMAL before LOW.' });
registerEnumType(TaskState, {
  name: 'TaskState',
  description:
    'DELAYED (waiting for its time, or for a retry), WAITING, ACTIVE (a worker runs it), then COMPLETED, FAILED or CANCELLED.',
});

const TIME = "Unix seconds (millisecond precision) by the Redis server's clock.";

@ObjectType({ description: 'A task and what became of it.' })
export class Task {
  @Field(() => ID, { description: 'The queue and a number: `<queue>:<number>`.' })
  id!: string;

  @Field()
  queue!: string;

  @Field({ description: 'Which handler runs it.' })
  name!: string;

  @Field(() => JSONScalar, { nullable: true })
  args?: unknown;

  @Field(() => TaskPriority)
  priority!: Priority;

  @Field(() => TaskState)
  state!: State;

  @Field(() => Float, { description: `When it may run (first, or next after a failure). ${TIME}` })
  runAt!: number;

  @Field(() => Int, { description: 'Runs started so far.' })
  attempts!: number;

  @Field(() => Int, { description: 'Runs it gets before it is FAILED (TASK_MAX_ATTEMPTS when it was enqueued).' })
  maxAttempts!: number;

  @Field(() => JSONScalar, { nullable: true, description: "The handler's result, once COMPLETED." })
  result?: unknown;

  @Field(() => String, { nullable: true, description: 'The last error, kept while it is retried.' })
  error?: string | null;

  @Field(() => Float, { description: TIME })
  createdAt!: number;

  @Field(() => Float, { nullable: true, description: `When its latest run started. ${TIME}` })
  startedAt?: number | null;

  @Field(() => Float, { nullable: true, description: `When it was COMPLETED, FAILED or CANCELLED. ${TIME}` })
  finishedAt?: number | null;
}

@ObjectType({ description: "A queue's tasks by state. Finished counts are totals since the queue began." })
export class QueueStats {
  @Field()
  name!: string;

  @Field(() => Int, { description: 'Waiting at HIGH priority.' })
  waitingHigh!: number;

  @Field(() => Int)
  waitingNormal!: number;

  @Field(() => Int)
  waitingLow!: number;

  @Field(() => Int, { description: 'Waiting for their time or for a retry.' })
  delayed!: number;

  @Field(() => Int, { description: 'Being run by a worker.' })
  active!: number;

  @Field(() => Int)
  completed!: number;

  @Field(() => Int)
  failed!: number;

  @Field(() => Int)
  cancelled!: number;
}

@ObjectType({ description: 'Tells that a task changed state; read it with `task(id)`.' })
export class TaskChange {
  @Field(() => ID)
  id!: string;

  @Field(() => TaskState)
  state!: State;
}

@ArgsType()
export class EnqueueTaskArgs {
  @Field({ description: `Queue name: ${NAME_RULE}.` })
  queue!: string;

  @Field({ description: `Task name, which picks the handler: ${NAME_RULE}.` })
  name!: string;

  @Field(() => JSONScalar, {
    nullable: true,
    description: 'Passed to the handler: any JSON up to TASK_MAX_ARGS_BYTES, nested at most 32 deep.',
  })
  args?: unknown;

  @Field(() => TaskPriority, { defaultValue: 'NORMAL' })
  priority!: Priority;

  @Field(() => Int, {
    defaultValue: 0,
    description: 'Run no sooner than this many ms from now: 0 to TASK_MAX_DELAY_MS.',
  })
  delayMs!: number;

  @Field(() => String, {
    nullable: true,
    description: `${NAME_RULE}. Enqueueing again with the same key returns the first task (while it is remembered); with a different task it is CONFLICT.`,
  })
  idempotencyKey?: string | null;
}

@ArgsType()
export class TaskIdArgs {
  @Field(() => ID)
  id!: string;
}

@ArgsType()
export class RescheduleTaskArgs {
  @Field(() => ID)
  id!: string;

  @Field(() => Int, { description: 'Run no sooner than this many ms from now: 0 to TASK_MAX_DELAY_MS.' })
  delayMs!: number;
}

@ArgsType()
export class QueueArgs {
  @Field({ description: `Queue name: ${NAME_RULE}.` })
  name!: string;
}
