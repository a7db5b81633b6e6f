// Group chats: the repository and what it takes and gives. Everything outside this folder imports
// from here ('../redis/chat'), never from a module inside it.
export { ChatRepository } from './repository';
export { shareFairly } from './fair-share';
export { CHAT_DEFAULTS } from './types';
export type {
  ChatDetails,
  ChatMessage,
  ChatSettings,
  ChatSummary,
  Retention,
  RetentionMode,
  ScriptNotice,
  SentMessage,
} from './types';
