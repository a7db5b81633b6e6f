// Repeating tasks, for service callers only, like enqueueTask: a schedule enqueues tasks on its
// own from then on. The scheduler that enqueues them runs with the task pollers (src/workers).
import { Args, Authorized, Mutation, Query, Resolver } from 'type-graphql';
import { SERVICE_ROLE } from '../security/auth';
import type { TaskConfig } from '../config';
import { badInput } from '../common/errors';
import { given, intInRange, validJson, validName } from '../common/validation';
import { unixSeconds, unixSecondsOrNull } from '../common/time';
import {
  cronProblem,
  type ScheduleDefinition,
  type TaskScheduleRecord,
  type TaskScheduleRepository,
} from '../redis/task-schedule';
import {
  MAX_CRON_LENGTH,
  MAX_EVERY_SECONDS,
  TaskSchedule,
  TaskScheduleNameArgs,
  TaskSchedulesArgs,
  UpsertTaskScheduleArgs,
} from '../schema/task-schedule';

@Resolver()
export class TaskScheduleResolver {
  constructor(
    private readonly schedules: TaskScheduleRepository,
    private readonly settings: TaskConfig,
  ) {}

  @Authorized(SERVICE_ROLE)
  @Query(() => [TaskSchedule], { description: "A queue's repeating tasks by name, each with its next run." })
  async taskSchedules(@Args() args: TaskSchedulesArgs): Promise<TaskSchedule[]> {
    const records = await this.schedules.list(validName(args.queue, 'queue'));
    return records.map(toSchedule);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => TaskSchedule, {
    description:
      'Creates a repeating task, or replaces the one of this name: with the same timing its next run stays, with a new one it is the next tick after now. Service callers only.',
  })
  async upsertTaskSchedule(@Args() args: UpsertTaskScheduleArgs): Promise<TaskSchedule> {
    const queue = validName(args.queue, 'queue');
    const name = validName(args.name, 'name');
    const definition: ScheduleDefinition = {
      task: validName(args.task, 'task'),
      priority: args.priority,
      args: validJson(args.args, 'args', this.settings.maxArgsBytes),
      ...timing(args),
    };
    const { schedule } = await this.schedules.set(queue, name, definition);
    return toSchedule(schedule);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Boolean, {
    description: 'Removes a repeating task (the tasks it enqueued stay); false when there was none.',
  })
  async removeTaskSchedule(@Args() args: TaskScheduleNameArgs): Promise<boolean> {
    return this.schedules.remove(validName(args.queue, 'queue'), validName(args.name, 'name'));
  }
}

/** Exactly one of everySeconds and cron; a time zone only with cron. */
function timing(args: UpsertTaskScheduleArgs): Pick<ScheduleDefinition, 'everySeconds' | 'cron' | 'timezone'> {
  if (given(args.everySeconds) === given(args.cron)) {
    throw badInput('give either everySeconds or cron, not both or neither', given(args.cron) ? 'cron' : 'everySeconds');
  }
  if (given(args.everySeconds)) {
    if (given(args.timezone)) throw badInput('timezone applies to cron schedules only', 'timezone');
    return { everySeconds: intInRange(args.everySeconds, 'everySeconds', 1, MAX_EVERY_SECONDS) };
  }
  const cron = args.cron!.trim().replace(/\s+/g, ' ');
  if (cron === '') throw badInput('cron must not be empty', 'cron');
  if (cron.length > MAX_CRON_LENGTH) throw badInput(`cron must be at most ${MAX_CRON_LENGTH} characters`, 'cron');
  const timezone = given(args.timezone) ? validTimezone(args.timezone) : undefined;
  const problem = cronProblem(cron, timezone);
  if (problem !== undefined) throw badInput(`cron is not a valid cron expression: ${problem}`, 'cron');
  return { cron, timezone };
}

function validTimezone(value: string): string {
  if (value.length > 64) throw badInput('timezone must be at most 64 characters', 'timezone');
  try {
    // Throws a RangeError for a zone the runtime does not know. The name is kept as given: the
    // runtime's canonical name may be an older one (Asia/Calcutta for Asia/Kolkata).
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return value;
  } catch {
    throw badInput('timezone must be an IANA time zone such as Europe/Paris or UTC', 'timezone');
  }
}

const parsed = (json: string | undefined): unknown => (json === undefined ? null : JSON.parse(json));

function toSchedule(record: TaskScheduleRecord): TaskSchedule {
  const { definition } = record;
  return {
    queue: record.queue,
    name: record.name,
    task: definition.task,
    args: parsed(definition.args),
    priority: definition.priority,
    everySeconds: definition.everySeconds ?? null,
    cron: definition.cron ?? null,
    timezone: definition.timezone ?? null,
    nextRunAt: unixSeconds(record.nextRunAt),
    lastRunAt: unixSecondsOrNull(record.lastRunAt),
    lastTaskId: record.lastTaskId ?? null,
    missedRuns: record.missedRuns,
  };
}
