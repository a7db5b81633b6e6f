// GraphQL types of repeating tasks (schedules that enqueue a task every N seconds or by cron).
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import type { TaskPriority as Priority } from '../redis/keys';
import { NAME_RULE } from '../common/validation';
import { JSONScalar } from './json-scalar';
import { TaskPriority } from './task';

const TIME = "Unix seconds (millisecond precision) by the Redis server's clock.";

/** Longest `everySeconds`: a year. */
export const MAX_EVERY_SECONDS = 366 * 86_400;

/** Longest cron expression, in characters. */
export const MAX_CRON_LENGTH = 128;

@ObjectType({ description: 'A schedule that enqueues a task every `everySeconds`, or at the times of `cron`.' })
export class TaskSchedule {
  @Field()
  queue!: string;

  @Field({ description: 'Unique within the queue.' })
  name!: string;

  @Field({ description: 'The name of the tasks it enqueues (which picks their handler).' })
  task!: string;

  @Field(() => JSONScalar, { nullable: true, description: 'Passed to each task.' })
  args?: unknown;

  @Field(() => TaskPriority)
  priority!: Priority;

  @Field(() => Int, { nullable: true, description: 'Seconds between runs; null for a cron schedule.' })
  everySeconds?: number | null;

  @Field(() => String, { nullable: true, description: 'The cron expression; null for an every-N-seconds schedule.' })
  cron?: string | null;

  @Field(() => String, { nullable: true, description: 'The IANA time zone `cron` is read in; null: UTC.' })
  timezone?: string | null;

  @Field(() => Float, { description: `When it next enqueues a task (the task's runAt). ${TIME}` })
  nextRunAt!: number;

  @Field(() => Float, { nullable: true, description: `When it last enqueued a task. ${TIME}` })
  lastRunAt?: number | null;

  @Field(() => ID, { nullable: true, description: 'The last task it enqueued (it may have been forgotten since).' })
  lastTaskId?: string | null;

  @Field(() => Int, {
    description:
      'Runs it did not enqueue: the queue was full, or they came while no scheduler ran (one task stood for them).',
  })
  missedRuns!: number;
}

@ArgsType()
export class TaskSchedulesArgs {
  @Field({ description: `Queue name: ${NAME_RULE}.` })
  queue!: string;
}

@ArgsType()
export class TaskScheduleNameArgs {
  @Field({ description: `Queue name: ${NAME_RULE}.` })
  queue!: string;

  @Field({ description: `Schedule name: ${NAME_RULE}.` })
  name!: string;
}

@ArgsType()
export class UpsertTaskScheduleArgs extends TaskScheduleNameArgs {
  @Field({ description: `Name of the tasks it enqueues, which picks the handler: ${NAME_RULE}.` })
  task!: string;

  @Field(() => JSONScalar, {
    nullable: true,
    description: 'Passed to each task: any JSON up to TASK_MAX_ARGS_BYTES, nested at most 32 deep.',
  })
  args?: unknown;

  @Field(() => TaskPriority, { defaultValue: 'NORMAL' })
  priority!: Priority;

  @Field(() => Int, {
    nullable: true,
    description: `Enqueue every this many seconds, 1 to ${MAX_EVERY_SECONDS}, at multiples of it since 1970-01-01 UTC. Give this or cron.`,
  })
  everySeconds?: number | null;

  @Field(() => String, {
    nullable: true,
    description: `A cron expression of 5 fields, or 6 with seconds first (at most ${MAX_CRON_LENGTH} characters). Give this or everySeconds.`,
  })
  cron?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'The IANA time zone to read cron in, such as Europe/Paris; UTC when unset. Only with cron.',
  })
  timezone?: string | null;
}
