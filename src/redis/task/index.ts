// The task system's repository and shapes, from one import path (`redis/task`).
export * from './types';
export { TaskRepository } from './repository';
