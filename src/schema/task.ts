// GraphQL types of task queues.
import { JSONScalar } from './json-scalar';
import { ArgsType, Field, Float, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { TASK_PRIORITIES, type TaskPriority as Priority } from '../redis/keys';
import { BACKOFF_KINDS, TASK_STATES, type BackoffKind, type TaskState as State } from '../redis/task';
import { NAME_RULE } from '../common/validation';
import { enumOf } from './enums';
import { CATCH_UP_FIELD } from './topics';

export const TaskPriority = enumOf(TASK_PRIORITIES);
const TaskState = enumOf(TASK_STATES);
const TaskBackoff = enumOf(BACKOFF_KINDS);
const TASK_ORDERS = ['OLDEST_FIRST', 'NEWEST_FIRST'] as const;
export type TaskOrderName = (typeof TASK_ORDERS)[number];
const TaskOrder = enumOf(TASK_ORDERS);

registerEnumType(TaskPriority, { name: 'TaskPriority', description: 'Workers take HIGH before NORMAL before LOW.' });
registerEnumType(TaskState, {
  name: 'TaskState',
  description:
    'DELAYED (waiting for its time, or for a retry), WAITING, ACTIVE (a worker runs it), then COMPLETED, FAILED or CANCELLED.',
});

registerEnumType(TaskBackoff, {
  name: 'TaskBackoff',
  description: 'EXPONENTIAL: the wait before a retry doubles with each run; FIXED: it stays the same.',
});
registerEnumType(TaskOrder, {
  name: 'TaskOrder',
  description:
    'WAITING tasks in the order workers take them (OLDEST_FIRST: the next one first), DELAYED by when they are due, ACTIVE by when their lease ends, finished ones by when they finished.',
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

  @Field(() => String, {
    nullable: true,
    description:
      'The error of the last failed run, kept while the task waits and runs again; cleared when a run completes.',
  })
  error?: string | null;

  @Field(() => Float, { description: TIME })
  createdAt!: number;

  @Field(() => Float, { nullable: true, description: `When its latest run started. ${TIME}` })
  startedAt?: number | null;

  @Field(() => Float, { nullable: true, description: `When it was COMPLETED, FAILED or CANCELLED. ${TIME}` })
  finishedAt?: number | null;

  @Field(() => JSONScalar, { nullable: true, description: 'What its handler last reported of its progress.' })
  progress?: unknown;

  @Field(() => Int, { nullable: true, description: "Its own first wait before a retry, in ms; null: the queue's." })
  backoffMs?: number | null;

  @Field(() => TaskBackoff)
  backoff!: BackoffKind;

  @Field(() => Int, {
    nullable: true,
    description: "Its own longest run, in ms; null: the workers' TASK_RUN_TIMEOUT_MS.",
  })
  timeoutMs?: number | null;

  @Field(() => Int, { description: 'Times retryTask gave it another set of runs.' })
  retries!: number;
}

@ObjectType({ description: "A page of a queue's tasks in one state." })
export class TaskPage {
  @Field(() => [Task])
  tasks!: Task[];

  @Field({ description: 'Whether another page follows; a page of finished tasks can be short and still have one.' })
  hasMore!: boolean;

  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page; null when there is none.' })
  cursor?: string | null;
}

@ObjectType({ description: "A queue's tasks by state. Finished counts are totals since the queue began." })
export class QueueStats {
  @Field()
  name!: string;

  @Field({ description: 'Whether workers are stopped from taking its tasks (pauseQueue).' })
  paused!: boolean;

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

  @Field(() => JSONScalar, { nullable: true, description: 'What its handler reported, on a progress report.' })
  progress?: unknown;

  @Field({ description: CATCH_UP_FIELD })
  catchUp!: boolean;
}

const MAX_ATTEMPTS_TEXT = "Runs before it is FAILED, 1 to 100; the queue's TASK_MAX_ATTEMPTS when left out.";
const BACKOFF_MS_TEXT =
  "First wait before a retry, 0 to TASK_MAX_BACKOFF_MS; the queue's TASK_BACKOFF_MS when left out.";
const TIMEOUT_TEXT = "Longest run in ms, 100 to 86400000; the workers' TASK_RUN_TIMEOUT_MS when left out.";

@InputType({ description: 'One task of enqueueTasks; the fields mean what they mean in enqueueTask.' })
export class TaskInput {
  @Field({ description: `Task name, which picks the handler: ${NAME_RULE}.` })
  name!: string;

  @Field(() => JSONScalar, { nullable: true })
  args?: unknown;

  @Field(() => TaskPriority, { defaultValue: 'NORMAL' })
  priority!: Priority;

  @Field(() => Int, { defaultValue: 0 })
  delayMs!: number;

  @Field(() => String, { nullable: true })
  idempotencyKey?: string | null;

  @Field(() => Int, { nullable: true, description: MAX_ATTEMPTS_TEXT })
  maxAttempts?: number | null;

  @Field(() => Int, { nullable: true, description: BACKOFF_MS_TEXT })
  backoffMs?: number | null;

  @Field(() => TaskBackoff, { nullable: true })
  backoff?: BackoffKind | null;

  @Field(() => Int, { nullable: true, description: TIMEOUT_TEXT })
  timeoutMs?: number | null;
}

@ArgsType()
export class EnqueueTasksArgs {
  @Field({ description: `Queue name: ${NAME_RULE}.` })
  queue!: string;

  @Field(() => [TaskInput], { description: 'The tasks, 1 to TASK_MAX_BATCH, recorded all together or not at all.' })
  tasks!: TaskInput[];
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

  @Field(() => Int, { nullable: true, description: MAX_ATTEMPTS_TEXT })
  maxAttempts?: number | null;

  @Field(() => Int, { nullable: true, description: BACKOFF_MS_TEXT })
  backoffMs?: number | null;

  @Field(() => TaskBackoff, {
    nullable: true,
    description: 'How the wait grows between retries; EXPONENTIAL when left out.',
  })
  backoff?: BackoffKind | null;

  @Field(() => Int, { nullable: true, description: TIMEOUT_TEXT })
  timeoutMs?: number | null;
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

@ArgsType()
export class TasksArgs {
  @Field({ description: `Queue name: ${NAME_RULE}.` })
  queue!: string;

  @Field(() => TaskState)
  state!: State;

  @Field(() => TaskOrder, { defaultValue: 'OLDEST_FIRST' })
  order!: TaskOrderName;

  @Field(() => Int, { defaultValue: 20, description: 'Page size, 1 to 100.' })
  first!: number;

  @Field(() => String, { nullable: true, description: 'The `cursor` of the previous page.' })
  after?: string | null;
}
