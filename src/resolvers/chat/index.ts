// Group chats' operations, one resolver class in modules by concern (base.ts says how).
export { ChatResolver } from './resolver';
