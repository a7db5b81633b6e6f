// Task queues, for service callers only: task records may hold anything a backend put in them.
// Workers do not come through here; they use the repository directly (src/workers).
import { Args, Authorized, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { SERVICE_ROLE } from '../security/auth';
import type { TaskConfig } from '../config';
import { badInput } from '../common/errors';
import { parseTaskId } from '../redis/keys';
import type { TaskRecord, TaskRepository } from '../redis/task';
import {
  EnqueueTaskArgs,
  QueueArgs,
  QueueStats,
  RescheduleTaskArgs,
  Task,
  TaskChange,
  TaskIdArgs,
} from '../schema/task';
import { TOPICS } from '../schema/topics';
import { intInRange, validJson, validName } from '../common/validation';
import { unixSeconds, unixSecondsOrNull } from '../common/time';

@Resolver()
export class TaskResolver {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly settings: TaskConfig,
  ) {}

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Task, { description: 'Queues a task for the workers of `queue`. Service callers only.' })
  async enqueueTask(@Args() args: EnqueueTaskArgs): Promise<Task> {
    const request = {
      queue: validName(args.queue, 'queue'),
      name: validName(args.name, 'name'),
      args: validJson(args.args, 'args', this.settings.maxArgsBytes),
      priority: args.priority,
      delayMs: intInRange(args.delayMs, 'delayMs', 0, this.settings.maxDelayMs),
      idempotencyKey:
        args.idempotencyKey === null || args.idempotencyKey === undefined
          ? undefined
          : validName(args.idempotencyKey, 'idempotencyKey'),
    };
    const { task } = await this.tasks.enqueue(request);
    return toTask(task);
  }

  @Authorized(SERVICE_ROLE)
  @Query(() => Task, {
    nullable: true,
    description: 'A task, or null when there is none (finished tasks are forgotten beyond TASK_HISTORY per queue).',
  })
  async task(@Args() { id }: TaskIdArgs): Promise<Task | null> {
    const { queue, number } = taskAddress(id);
    const task = await this.tasks.get(queue, number);
    return task ? toTask(task) : null;
  }

  @Authorized(SERVICE_ROLE)
  @Query(() => QueueStats, { description: "A queue's tasks by state." })
  async queue(@Args() { name }: QueueArgs): Promise<QueueStats> {
    const queue = validName(name, 'name');
    const stats = await this.tasks.stats(queue);
    return {
      name: queue,
      waitingHigh: stats.waiting.HIGH,
      waitingNormal: stats.waiting.NORMAL,
      waitingLow: stats.waiting.LOW,
      delayed: stats.delayed,
      active: stats.active,
      completed: stats.completed,
      failed: stats.failed,
      cancelled: stats.cancelled,
    };
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Boolean, {
    description: 'Cancels a task that has not started; false once it has started or finished.',
  })
  async cancelTask(@Args() { id }: TaskIdArgs): Promise<boolean> {
    const { queue, number } = taskAddress(id);
    return this.tasks.cancel(queue, number);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Task, {
    nullable: true,
    description:
      'Runs a task that has not started `delayMs` from now instead; null when there is no such task, CONFLICT once it has started.',
  })
  async rescheduleTask(@Args() { id, delayMs }: RescheduleTaskArgs): Promise<Task | null> {
    const { queue, number } = taskAddress(id);
    const task = await this.tasks.reschedule(
      queue,
      number,
      intInRange(delayMs, 'delayMs', 0, this.settings.maxDelayMs),
    );
    return task ? toTask(task) : null;
  }

  @Authorized(SERVICE_ROLE)
  @Subscription(() => TaskChange, {
    description: 'Tells each time the task changes state; read it with `task(id)`. Service callers only.',
    topics: TOPICS.taskChanged.name,
    topicId: ({ args }) => {
      const { queue, number } = taskAddress((args as TaskIdArgs).id);
      return `${queue}:${number}`;
    },
  })
  taskChanged(@Root() change: TaskChange, @Args() _args: TaskIdArgs): TaskChange {
    return { id: change.id, state: change.state };
  }
}

function taskAddress(id: string): { queue: string; number: string } {
  const address = parseTaskId(id);
  if (!address) throw badInput('id must be a task id as enqueueTask returned it: <queue>:<number>', 'id');
  return { queue: validName(address.queue, 'id'), number: address.number };
}

const parsed = (json: string | undefined): unknown => (json === undefined ? null : JSON.parse(json));

function toTask(task: TaskRecord): Task {
  return {
    id: task.id,
    queue: task.queue,
    name: task.name,
    args: parsed(task.args),
    priority: task.priority,
    state: task.state,
    runAt: unixSeconds(task.runAt),
    attempts: task.attempts,
    maxAttempts: task.maxAttempts,
    result: parsed(task.result),
    error: task.error ?? null,
    createdAt: unixSeconds(task.createdAt),
    startedAt: unixSecondsOrNull(task.startedAt),
    finishedAt: unixSecondsOrNull(task.finishedAt),
  };
}
