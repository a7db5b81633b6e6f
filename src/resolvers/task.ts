// Task queues, for service callers only: task records may hold anything a backend put in them.
// Workers do not come through here; they use the repository directly (src/workers).
import { Args, Authorized, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { SERVICE_ROLE } from '../security/auth';
import type { TaskConfig } from '../config';
import { badInput, notFound } from '../common/errors';
import { parseTaskId } from '../redis/keys';
import type { EnqueueRequest, TaskRecord, TaskRepository } from '../redis/task';
import {
  EnqueueTaskArgs,
  EnqueueTasksArgs,
  QueueArgs,
  QueueStats,
  RescheduleTaskArgs,
  Task,
  TaskChange,
  TaskIdArgs,
  TaskPage,
  TasksArgs,
  type TaskInput,
} from '../schema/task';
import { isCatchUp, TOPICS, type CatchUpNotice, type TaskChangeNotice } from '../schema/topics';

/** Largest page of tasksOf. */
const MAX_TASK_PAGE = 100;
/** Longest run a task may ask for: TASK_RUN_TIMEOUT_MS's own ceiling. */
const MAX_TIMEOUT_MS = 86_400_000;
import { given, intInRange, validJson, validName } from '../common/validation';
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
    const { task } = await this.tasks.enqueue({ queue: validName(args.queue, 'queue'), ...this.request(args, '') });
    return toTask(task);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => [Task], {
    description:
      'Queues several tasks in one step: all of them, or none when one is refused. Each comes back as enqueueTask returns it, in order. Service callers only.',
  })
  async enqueueTasks(@Args() { queue, tasks }: EnqueueTasksArgs): Promise<Task[]> {
    const name = validName(queue, 'queue');
    intInRange(tasks.length, 'tasks', 1, this.settings.maxBatch);
    const requests = tasks.map((task, i) => this.request(task, `tasks[${i}].`));
    return (await this.tasks.enqueueMany(name, requests)).map(({ task }) => toTask(task));
  }

  /** One task's request, checked; `at` names where it sits in the arguments, for errors. */
  private request(input: TaskInput, at: string): Omit<EnqueueRequest, 'queue'> {
    return {
      name: validName(input.name, `${at}name`),
      args: validJson(input.args, `${at}args`, this.settings.maxArgsBytes),
      priority: input.priority,
      delayMs: intInRange(input.delayMs, `${at}delayMs`, 0, this.settings.maxDelayMs),
      idempotencyKey: given(input.idempotencyKey) ? validName(input.idempotencyKey, `${at}idempotencyKey`) : undefined,
      maxAttempts: given(input.maxAttempts) ? intInRange(input.maxAttempts, `${at}maxAttempts`, 1, 100) : undefined,
      backoffMs: given(input.backoffMs)
        ? intInRange(input.backoffMs, `${at}backoffMs`, 0, this.settings.maxBackoffMs)
        : undefined,
      backoff: given(input.backoff) ? input.backoff : undefined,
      timeoutMs: given(input.timeoutMs)
        ? intInRange(input.timeoutMs, `${at}timeoutMs`, 100, MAX_TIMEOUT_MS)
        : undefined,
    };
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
    return this.statsOf(validName(name, 'name'));
  }

  @Authorized(SERVICE_ROLE)
  @Query(() => TaskPage, {
    name: 'tasks',
    description: "A page of a queue's tasks in one state. Service callers only.",
  })
  async listTasks(@Args() { queue, state, order, first, after }: TasksArgs): Promise<TaskPage> {
    const name = validName(queue, 'queue');
    const size = intInRange(first, 'first', 1, MAX_TASK_PAGE);
    if (
      given(after) &&
      !(state === 'WAITING' ? /^(0|[1-9][0-9]{0,8})$/ : /^-?[0-9]{1,16} [1-9][0-9]{0,15}$/).test(after)
    ) {
      throw badInput('after must be the cursor of a previous page of the same state', 'after');
    }
    const page = await this.tasks.list(
      name,
      state,
      order === 'NEWEST_FIRST' ? 'DESC' : 'ASC',
      size,
      after ?? undefined,
    );
    return { tasks: page.tasks.map(toTask), hasMore: page.cursor !== undefined, cursor: page.cursor ?? null };
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Task, {
    nullable: true,
    description:
      'Gives a FAILED task another set of runs (its maxAttempts grows by them); null when there is no such task, CONFLICT when it has not failed.',
  })
  async retryTask(@Args() { id }: TaskIdArgs): Promise<Task | null> {
    const { queue, number } = taskAddress(id);
    const task = await this.tasks.retry(queue, number);
    return task ? toTask(task) : null;
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Boolean, {
    description:
      'Forgets a finished task (COMPLETED, FAILED or CANCELLED) now; false when there is no such task, CONFLICT while it may still run.',
  })
  async removeTask(@Args() { id }: TaskIdArgs): Promise<boolean> {
    const { queue, number } = taskAddress(id);
    return this.tasks.remove(queue, number);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => QueueStats, {
    description:
      'Stops workers from taking tasks of the queue; runs in progress finish, and tasks can still be added. Service callers only.',
  })
  async pauseQueue(@Args() { name }: QueueArgs): Promise<QueueStats> {
    const queue = validName(name, 'name');
    await this.tasks.setPaused(queue, true);
    return this.statsOf(queue);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => QueueStats, { description: 'Lets workers take tasks of a paused queue again. Service callers only.' })
  async resumeQueue(@Args() { name }: QueueArgs): Promise<QueueStats> {
    const queue = validName(name, 'name');
    await this.tasks.setPaused(queue, false);
    return this.statsOf(queue);
  }

  private async statsOf(queue: string): Promise<QueueStats> {
    const stats = await this.tasks.stats(queue);
    return {
      name: queue,
      paused: stats.paused,
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
  async taskChanged(@Root() change: TaskChangeNotice | CatchUpNotice, @Args() { id }: TaskIdArgs): Promise<TaskChange> {
    // A catch-up carries the task's state now, as a change of state would. A task forgotten
    // meanwhile has none: the subscriber gets this one event as NOT_FOUND (docs/tasks.md, catch-up) and
    // the stream stays open, as it does when a task is forgotten while nothing is lost.
    if (isCatchUp(change)) {
      const { queue, number } = taskAddress(id);
      const task = await this.tasks.get(queue, number);
      if (!task) throw notFound('the task was forgotten (finished tasks are kept up to TASK_HISTORY)', 'id');
      return { id: task.id, state: task.state, progress: null, catchUp: true };
    }
    // The scripts send the progress as the JSON text the handler's report became.
    return {
      catchUp: false,
      id: change.id,
      state: change.state as TaskChange['state'],
      progress: parsed(change.progress ?? undefined),
    };
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
    progress: parsed(task.progress),
    backoffMs: task.backoffMs ?? null,
    backoff: task.backoff ?? 'EXPONENTIAL',
    timeoutMs: task.timeoutMs ?? null,
    retries: task.retries ?? 0,
  };
}
