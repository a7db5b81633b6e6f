/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Per step, over its slices of the chosen precision, a slice without a sample counting as 0: SUM of the counts; AVG = SUM / slices per step (step / precision); MIN and MAX of the slices; COUNT of the slices that hold a sample. */
export type CounterAggregation =
  | 'AVG'
  | 'COUNT'
  | 'MAX'
  | 'MIN'
  | 'SUM';

/** WAITING tasks in the order workers take them (OLDEST_FIRST: the next one first), DELAYED by when they are due, ACTIVE by when their lease ends, finished ones by when they finished. */
export type TaskOrder =
  | 'NEWEST_FIRST'
  | 'OLDEST_FIRST';

/** Workers take HIGH before NORMAL before LOW. */
export type TaskPriority =
  | 'HIGH'
  | 'LOW'
  | 'NORMAL';

/** DELAYED (waiting for its time, or for a retry), WAITING, ACTIVE (a worker runs it), then COMPLETED, FAILED or CANCELLED. */
export type TaskState =
  | 'ACTIVE'
  | 'CANCELLED'
  | 'COMPLETED'
  | 'DELAYED'
  | 'FAILED'
  | 'WAITING';

export type AppCountersQueryVariables = Exact<{
  after?: string | null | undefined;
  first?: number | null | undefined;
}>;


export type AppCountersQuery = { __typename: 'Query', counters: Array<{ __typename: 'KnownCounter', name: string, precisions: Array<number> }> };

export type AppCounterSeriesQueryVariables = Exact<{
  names?: Array<string> | string | null | undefined;
  prefix?: string | null | undefined;
  first?: number | null | undefined;
  from: number;
  step: number;
  aggregation?: CounterAggregation | null | undefined;
}>;


export type AppCounterSeriesQuery = { __typename: 'Query', counterSeriesMany: Array<{ __typename: 'CounterSeries', name: string, precision: number, step: number, aggregation: CounterAggregation, start: number, end: number, retainedFrom: number, points: Array<{ __typename: 'CounterPoint', time: number, value: number }> }> };

export type AppCounterUpdatedSubscriptionVariables = Exact<{
  name: string;
}>;


export type AppCounterUpdatedSubscription = { counterUpdated: { __typename: 'CounterUpdate', name: string, time: number } };

export type AppUpdateCounterMutationVariables = Exact<{
  name: string;
  count?: number | null | undefined;
}>;


export type AppUpdateCounterMutation = { __typename: 'Mutation', updateCounter: boolean };

export type AppMeQueryVariables = Exact<{ [key: string]: never; }>;


export type AppMeQuery = { __typename: 'Query', me: { __typename: 'Account', userId: string, funds: number, items: number } };

export type AppQueueCountsFragment = { __typename: 'QueueStats', name: string, paused: boolean, waitingHigh: number, waitingNormal: number, waitingLow: number, delayed: number, active: number, completed: number, failed: number, cancelled: number };

export type AppTaskRowFragment = { __typename: 'Task', id: string, name: string, state: TaskState, priority: TaskPriority, attempts: number, maxAttempts: number, retries: number, error: string | null, progress: unknown, runAt: number, finishedAt: number | null };

export type AppQueueQueryVariables = Exact<{
  name: string;
}>;


export type AppQueueQuery = { __typename: 'Query', queue: { __typename: 'QueueStats', name: string, paused: boolean, waitingHigh: number, waitingNormal: number, waitingLow: number, delayed: number, active: number, completed: number, failed: number, cancelled: number } };

export type AppTasksQueryVariables = Exact<{
  queue: string;
  state: TaskState;
  order?: TaskOrder | null | undefined;
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type AppTasksQuery = { __typename: 'Query', tasks: { __typename: 'TaskPage', hasMore: boolean, cursor: string | null, tasks: Array<{ __typename: 'Task', id: string, name: string, state: TaskState, priority: TaskPriority, attempts: number, maxAttempts: number, retries: number, error: string | null, progress: unknown, runAt: number, finishedAt: number | null }> } };

export type AppPauseQueueMutationVariables = Exact<{
  name: string;
}>;


export type AppPauseQueueMutation = { __typename: 'Mutation', pauseQueue: { __typename: 'QueueStats', name: string, paused: boolean, waitingHigh: number, waitingNormal: number, waitingLow: number, delayed: number, active: number, completed: number, failed: number, cancelled: number } };

export type AppResumeQueueMutationVariables = Exact<{
  name: string;
}>;


export type AppResumeQueueMutation = { __typename: 'Mutation', resumeQueue: { __typename: 'QueueStats', name: string, paused: boolean, waitingHigh: number, waitingNormal: number, waitingLow: number, delayed: number, active: number, completed: number, failed: number, cancelled: number } };

export type AppRetryTaskMutationVariables = Exact<{
  id: string | number;
}>;


export type AppRetryTaskMutation = { __typename: 'Mutation', retryTask: { __typename: 'Task', id: string, name: string, state: TaskState, priority: TaskPriority, attempts: number, maxAttempts: number, retries: number, error: string | null, progress: unknown, runAt: number, finishedAt: number | null } | null };

export type AppCancelTaskMutationVariables = Exact<{
  id: string | number;
}>;


export type AppCancelTaskMutation = { __typename: 'Mutation', cancelTask: boolean };

export type AppRemoveTaskMutationVariables = Exact<{
  id: string | number;
}>;


export type AppRemoveTaskMutation = { __typename: 'Mutation', removeTask: boolean };

export type AppTaskChangedSubscriptionVariables = Exact<{
  id: string | number;
}>;


export type AppTaskChangedSubscription = { taskChanged: { __typename: 'TaskChange', id: string, state: TaskState } };

export const AppQueueCountsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppQueueCounts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueStats"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"waitingHigh"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"waitingLow"}},{"kind":"Field","name":{"kind":"Name","value":"delayed"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"cancelled"}}]}}]} as unknown as DocumentNode<AppQueueCountsFragment, unknown>;
export const AppTaskRowFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppTaskRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}}]}}]} as unknown as DocumentNode<AppTaskRowFragment, unknown>;
export const AppCountersDocument = {"__meta__":{"hash":"sha256:8c6541d812649d0219061b948492731d38274b6fc376a65c924c277942cebc67"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppCounters"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"counters"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"precisions"}}]}}]}}]} as unknown as DocumentNode<AppCountersQuery, AppCountersQueryVariables>;
export const AppCounterSeriesDocument = {"__meta__":{"hash":"sha256:cb80c5b0cc60730ab4d7c1d2dfbb3fa91aabbb9ea76923d7ce878065c71e85f2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppCounterSeries"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"names"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Float"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"step"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"aggregation"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"CounterAggregation"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"counterSeriesMany"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"names"},"value":{"kind":"Variable","name":{"kind":"Name","value":"names"}}},{"kind":"Argument","name":{"kind":"Name","value":"prefix"},"value":{"kind":"Variable","name":{"kind":"Name","value":"prefix"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"step"},"value":{"kind":"Variable","name":{"kind":"Name","value":"step"}}},{"kind":"Argument","name":{"kind":"Name","value":"aggregation"},"value":{"kind":"Variable","name":{"kind":"Name","value":"aggregation"}}},{"kind":"Argument","name":{"kind":"Name","value":"fill"},"value":{"kind":"EnumValue","value":"ZERO"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"precision"}},{"kind":"Field","name":{"kind":"Name","value":"step"}},{"kind":"Field","name":{"kind":"Name","value":"aggregation"}},{"kind":"Field","name":{"kind":"Name","value":"start"}},{"kind":"Field","name":{"kind":"Name","value":"end"}},{"kind":"Field","name":{"kind":"Name","value":"retainedFrom"}},{"kind":"Field","name":{"kind":"Name","value":"points"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"time"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]} as unknown as DocumentNode<AppCounterSeriesQuery, AppCounterSeriesQueryVariables>;
export const AppCounterUpdatedDocument = {"__meta__":{"hash":"sha256:0596040e92bf3cc7442f8c6edd8ba146f0fde9ad641ca65ca4d37fddd6cd6a66"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AppCounterUpdated"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"counterUpdated"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"time"}}]}}]}}]} as unknown as DocumentNode<AppCounterUpdatedSubscription, AppCounterUpdatedSubscriptionVariables>;
export const AppUpdateCounterDocument = {"__meta__":{"hash":"sha256:9f5ca4ce71631a2d29ae0bb0dc78d1dd008a6e460d65f938a82bfe495d5d9552"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppUpdateCounter"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"count"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"updateCounter"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"count"},"value":{"kind":"Variable","name":{"kind":"Name","value":"count"}}}]}]}}]} as unknown as DocumentNode<AppUpdateCounterMutation, AppUpdateCounterMutationVariables>;
export const AppMeDocument = {"__meta__":{"hash":"sha256:c955b2b0f2d727399fee09b93a0980c30970ab6b1626efaeea55e1592d2339c6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppMe"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"funds"}},{"kind":"Field","name":{"kind":"Name","value":"items"}}]}}]}}]} as unknown as DocumentNode<AppMeQuery, AppMeQueryVariables>;
export const AppQueueDocument = {"__meta__":{"hash":"sha256:934cabed052b82bcfc57a8fbac97c20762eaf626dfd5959025d4123fdd1b5aee"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppQueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"queue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppQueueCounts"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppQueueCounts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueStats"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"waitingHigh"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"waitingLow"}},{"kind":"Field","name":{"kind":"Name","value":"delayed"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"cancelled"}}]}}]} as unknown as DocumentNode<AppQueueQuery, AppQueueQueryVariables>;
export const AppTasksDocument = {"__meta__":{"hash":"sha256:b19d9c7703b675080912c6f2b3ba43cc9357a8fedf70ef9951a3a41a12d86a6c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AppTasks"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"queue"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"state"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TaskState"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"order"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TaskOrder"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"tasks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"queue"},"value":{"kind":"Variable","name":{"kind":"Name","value":"queue"}}},{"kind":"Argument","name":{"kind":"Name","value":"state"},"value":{"kind":"Variable","name":{"kind":"Name","value":"state"}}},{"kind":"Argument","name":{"kind":"Name","value":"order"},"value":{"kind":"Variable","name":{"kind":"Name","value":"order"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"tasks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppTaskRow"}}]}},{"kind":"Field","name":{"kind":"Name","value":"hasMore"}},{"kind":"Field","name":{"kind":"Name","value":"cursor"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppTaskRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}}]}}]} as unknown as DocumentNode<AppTasksQuery, AppTasksQueryVariables>;
export const AppPauseQueueDocument = {"__meta__":{"hash":"sha256:68f3a481023793e7d0e8ebb8ac17a69cd9d04ea1bdd0083eb510475fa55f66ac"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppPauseQueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"pauseQueue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppQueueCounts"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppQueueCounts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueStats"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"waitingHigh"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"waitingLow"}},{"kind":"Field","name":{"kind":"Name","value":"delayed"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"cancelled"}}]}}]} as unknown as DocumentNode<AppPauseQueueMutation, AppPauseQueueMutationVariables>;
export const AppResumeQueueDocument = {"__meta__":{"hash":"sha256:08a7b503a8fd747bdcf0627a76093ac48933925c5d2b3047a60a0718556c1053"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppResumeQueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"resumeQueue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppQueueCounts"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppQueueCounts"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"QueueStats"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"paused"}},{"kind":"Field","name":{"kind":"Name","value":"waitingHigh"}},{"kind":"Field","name":{"kind":"Name","value":"waitingNormal"}},{"kind":"Field","name":{"kind":"Name","value":"waitingLow"}},{"kind":"Field","name":{"kind":"Name","value":"delayed"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"completed"}},{"kind":"Field","name":{"kind":"Name","value":"failed"}},{"kind":"Field","name":{"kind":"Name","value":"cancelled"}}]}}]} as unknown as DocumentNode<AppResumeQueueMutation, AppResumeQueueMutationVariables>;
export const AppRetryTaskDocument = {"__meta__":{"hash":"sha256:1927ab23facf1b6ad0419c0267417509e91f576556139039106779ea208e4de6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppRetryTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"retryTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AppTaskRow"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AppTaskRow"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Task"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"maxAttempts"}},{"kind":"Field","name":{"kind":"Name","value":"retries"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"progress"}},{"kind":"Field","name":{"kind":"Name","value":"runAt"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}}]}}]} as unknown as DocumentNode<AppRetryTaskMutation, AppRetryTaskMutationVariables>;
export const AppCancelTaskDocument = {"__meta__":{"hash":"sha256:a1a6f6aa165eeba32be84ec43ca0eb1607b26a732da099df667118ca43bbe736"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppCancelTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"cancelTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<AppCancelTaskMutation, AppCancelTaskMutationVariables>;
export const AppRemoveTaskDocument = {"__meta__":{"hash":"sha256:606105d95153342838ee7b944a656b4ac2877d407bfc7c87ff0f90b2a3ca79be"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppRemoveTask"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"removeTask"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}]}}]} as unknown as DocumentNode<AppRemoveTaskMutation, AppRemoveTaskMutationVariables>;
export const AppTaskChangedDocument = {"__meta__":{"hash":"sha256:acee03b012e6b4d9dbc63057d2c42971adc6290f7715125af4e9135bc7d2cc87"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AppTaskChanged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"taskChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<AppTaskChangedSubscription, AppTaskChangedSubscriptionVariables>;