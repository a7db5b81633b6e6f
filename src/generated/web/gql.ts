/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "query AppCounters($after: String, $first: Int) {\n  counters(after: $after, first: $first) {\n    name\n    precisions\n  }\n}\n\nquery AppCounterSeries($names: [String!], $prefix: String, $first: Int, $from: Float!, $step: Int!, $aggregation: CounterAggregation) {\n  counterSeriesMany(\n    names: $names\n    prefix: $prefix\n    first: $first\n    from: $from\n    step: $step\n    aggregation: $aggregation\n    fill: ZERO\n  ) {\n    name\n    precision\n    step\n    aggregation\n    start\n    end\n    retainedFrom\n    points {\n      time\n      value\n    }\n  }\n}\n\nsubscription AppCounterUpdated($name: String!) {\n  counterUpdated(name: $name) {\n    name\n    time\n  }\n}\n\nmutation AppUpdateCounter($name: String!, $count: Int) {\n  updateCounter(name: $name, count: $count)\n}": typeof types.AppCountersDocument,
    "query AppMe {\n  me {\n    userId\n    funds\n    items\n  }\n}": typeof types.AppMeDocument,
    "fragment AppQueueCounts on QueueStats {\n  name\n  paused\n  waitingHigh\n  waitingNormal\n  waitingLow\n  delayed\n  active\n  completed\n  failed\n  cancelled\n}\n\nfragment AppTaskRow on Task {\n  id\n  name\n  state\n  priority\n  attempts\n  maxAttempts\n  retries\n  error\n  progress\n  runAt\n  finishedAt\n}\n\nquery AppQueue($name: String!) {\n  queue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nquery AppTasks($queue: String!, $state: TaskState!, $order: TaskOrder, $first: Int, $after: String) {\n  tasks(queue: $queue, state: $state, order: $order, first: $first, after: $after) {\n    tasks {\n      ...AppTaskRow\n    }\n    hasMore\n    cursor\n  }\n}\n\nmutation AppPauseQueue($name: String!) {\n  pauseQueue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nmutation AppResumeQueue($name: String!) {\n  resumeQueue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nmutation AppRetryTask($id: ID!) {\n  retryTask(id: $id) {\n    ...AppTaskRow\n  }\n}\n\nmutation AppCancelTask($id: ID!) {\n  cancelTask(id: $id)\n}\n\nmutation AppRemoveTask($id: ID!) {\n  removeTask(id: $id)\n}\n\nsubscription AppTaskChanged($id: ID!) {\n  taskChanged(id: $id) {\n    id\n    state\n  }\n}": typeof types.AppQueueCountsFragmentDoc,
};
const documents: Documents = {
    "query AppCounters($after: String, $first: Int) {\n  counters(after: $after, first: $first) {\n    name\n    precisions\n  }\n}\n\nquery AppCounterSeries($names: [String!], $prefix: String, $first: Int, $from: Float!, $step: Int!, $aggregation: CounterAggregation) {\n  counterSeriesMany(\n    names: $names\n    prefix: $prefix\n    first: $first\n    from: $from\n    step: $step\n    aggregation: $aggregation\n    fill: ZERO\n  ) {\n    name\n    precision\n    step\n    aggregation\n    start\n    end\n    retainedFrom\n    points {\n      time\n      value\n    }\n  }\n}\n\nsubscription AppCounterUpdated($name: String!) {\n  counterUpdated(name: $name) {\n    name\n    time\n  }\n}\n\nmutation AppUpdateCounter($name: String!, $count: Int) {\n  updateCounter(name: $name, count: $count)\n}": types.AppCountersDocument,
    "query AppMe {\n  me {\n    userId\n    funds\n    items\n  }\n}": types.AppMeDocument,
    "fragment AppQueueCounts on QueueStats {\n  name\n  paused\n  waitingHigh\n  waitingNormal\n  waitingLow\n  delayed\n  active\n  completed\n  failed\n  cancelled\n}\n\nfragment AppTaskRow on Task {\n  id\n  name\n  state\n  priority\n  attempts\n  maxAttempts\n  retries\n  error\n  progress\n  runAt\n  finishedAt\n}\n\nquery AppQueue($name: String!) {\n  queue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nquery AppTasks($queue: String!, $state: TaskState!, $order: TaskOrder, $first: Int, $after: String) {\n  tasks(queue: $queue, state: $state, order: $order, first: $first, after: $after) {\n    tasks {\n      ...AppTaskRow\n    }\n    hasMore\n    cursor\n  }\n}\n\nmutation AppPauseQueue($name: String!) {\n  pauseQueue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nmutation AppResumeQueue($name: String!) {\n  resumeQueue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nmutation AppRetryTask($id: ID!) {\n  retryTask(id: $id) {\n    ...AppTaskRow\n  }\n}\n\nmutation AppCancelTask($id: ID!) {\n  cancelTask(id: $id)\n}\n\nmutation AppRemoveTask($id: ID!) {\n  removeTask(id: $id)\n}\n\nsubscription AppTaskChanged($id: ID!) {\n  taskChanged(id: $id) {\n    id\n    state\n  }\n}": types.AppQueueCountsFragmentDoc,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query AppCounters($after: String, $first: Int) {\n  counters(after: $after, first: $first) {\n    name\n    precisions\n  }\n}\n\nquery AppCounterSeries($names: [String!], $prefix: String, $first: Int, $from: Float!, $step: Int!, $aggregation: CounterAggregation) {\n  counterSeriesMany(\n    names: $names\n    prefix: $prefix\n    first: $first\n    from: $from\n    step: $step\n    aggregation: $aggregation\n    fill: ZERO\n  ) {\n    name\n    precision\n    step\n    aggregation\n    start\n    end\n    retainedFrom\n    points {\n      time\n      value\n    }\n  }\n}\n\nsubscription AppCounterUpdated($name: String!) {\n  counterUpdated(name: $name) {\n    name\n    time\n  }\n}\n\nmutation AppUpdateCounter($name: String!, $count: Int) {\n  updateCounter(name: $name, count: $count)\n}"): (typeof documents)["query AppCounters($after: String, $first: Int) {\n  counters(after: $after, first: $first) {\n    name\n    precisions\n  }\n}\n\nquery AppCounterSeries($names: [String!], $prefix: String, $first: Int, $from: Float!, $step: Int!, $aggregation: CounterAggregation) {\n  counterSeriesMany(\n    names: $names\n    prefix: $prefix\n    first: $first\n    from: $from\n    step: $step\n    aggregation: $aggregation\n    fill: ZERO\n  ) {\n    name\n    precision\n    step\n    aggregation\n    start\n    end\n    retainedFrom\n    points {\n      time\n      value\n    }\n  }\n}\n\nsubscription AppCounterUpdated($name: String!) {\n  counterUpdated(name: $name) {\n    name\n    time\n  }\n}\n\nmutation AppUpdateCounter($name: String!, $count: Int) {\n  updateCounter(name: $name, count: $count)\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query AppMe {\n  me {\n    userId\n    funds\n    items\n  }\n}"): (typeof documents)["query AppMe {\n  me {\n    userId\n    funds\n    items\n  }\n}"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment AppQueueCounts on QueueStats {\n  name\n  paused\n  waitingHigh\n  waitingNormal\n  waitingLow\n  delayed\n  active\n  completed\n  failed\n  cancelled\n}\n\nfragment AppTaskRow on Task {\n  id\n  name\n  state\n  priority\n  attempts\n  maxAttempts\n  retries\n  error\n  progress\n  runAt\n  finishedAt\n}\n\nquery AppQueue($name: String!) {\n  queue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nquery AppTasks($queue: String!, $state: TaskState!, $order: TaskOrder, $first: Int, $after: String) {\n  tasks(queue: $queue, state: $state, order: $order, first: $first, after: $after) {\n    tasks {\n      ...AppTaskRow\n    }\n    hasMore\n    cursor\n  }\n}\n\nmutation AppPauseQueue($name: String!) {\n  pauseQueue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nmutation AppResumeQueue($name: String!) {\n  resumeQueue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nmutation AppRetryTask($id: ID!) {\n  retryTask(id: $id) {\n    ...AppTaskRow\n  }\n}\n\nmutation AppCancelTask($id: ID!) {\n  cancelTask(id: $id)\n}\n\nmutation AppRemoveTask($id: ID!) {\n  removeTask(id: $id)\n}\n\nsubscription AppTaskChanged($id: ID!) {\n  taskChanged(id: $id) {\n    id\n    state\n  }\n}"): (typeof documents)["fragment AppQueueCounts on QueueStats {\n  name\n  paused\n  waitingHigh\n  waitingNormal\n  waitingLow\n  delayed\n  active\n  completed\n  failed\n  cancelled\n}\n\nfragment AppTaskRow on Task {\n  id\n  name\n  state\n  priority\n  attempts\n  maxAttempts\n  retries\n  error\n  progress\n  runAt\n  finishedAt\n}\n\nquery AppQueue($name: String!) {\n  queue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nquery AppTasks($queue: String!, $state: TaskState!, $order: TaskOrder, $first: Int, $after: String) {\n  tasks(queue: $queue, state: $state, order: $order, first: $first, after: $after) {\n    tasks {\n      ...AppTaskRow\n    }\n    hasMore\n    cursor\n  }\n}\n\nmutation AppPauseQueue($name: String!) {\n  pauseQueue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nmutation AppResumeQueue($name: String!) {\n  resumeQueue(name: $name) {\n    ...AppQueueCounts\n  }\n}\n\nmutation AppRetryTask($id: ID!) {\n  retryTask(id: $id) {\n    ...AppTaskRow\n  }\n}\n\nmutation AppCancelTask($id: ID!) {\n  cancelTask(id: $id)\n}\n\nmutation AppRemoveTask($id: ID!) {\n  removeTask(id: $id)\n}\n\nsubscription AppTaskChanged($id: ID!) {\n  taskChanged(id: $id) {\n    id\n    state\n  }\n}"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;