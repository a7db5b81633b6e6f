// Every Lua script documents its keys and arguments, and script failures become typed errors.
import { AppError } from '../../src/common/errors';
import { hasFlag } from '@ioredis/commands';
import {
  READ_ONLY_SCRIPTS,
  scriptSources,
  translateScriptError,
  type ScriptName,
} from '../../src/redis/client/scripts';

describe('Lua scripts', () => {
  const sources = [...scriptSources()];

  // REDIS_WAIT_REPLICAS makes every script but these wait for replicas: the list must be exact.
  it('are listed as read-only exactly when they call no command that writes', () => {
    // A container command has no flags of its own; every subcommand of these but HELP writes.
    const CONTAINERS_THAT_WRITE = ['XGROUP'];
    const writes = (lua: string) =>
      [...lua.matchAll(/redis\.call\('([A-Za-z]+)'/g)]
        .map((match) => match[1])
        .filter((command) => CONTAINERS_THAT_WRITE.includes(command) || hasFlag(command.toLowerCase(), 'write'));
    const readOnly = sources.filter(([, lua]) => writes(lua).length === 0).map(([name]) => name);
    expect(readOnly).toEqual([...READ_ONLY_SCRIPTS].sort());
    expect(readOnly.length).toBeGreaterThan(0);
    expect(writes(sources.find(([name]) => name === ('chat-send' satisfies ScriptName))![1])).toContain('ZADD');
  });

  it('are all found', () => {
    expect(sources.map(([name]) => name)).toEqual([
      'chat-create',
      'chat-details',
      'chat-device-add',
      'chat-device-check',
      'chat-fetch',
      'chat-forget-devices',
      'chat-history',
      'chat-index-add',
      'chat-index-hold',
      'chat-index-remove',
      'chat-join',
      'chat-leave',
      'chat-manage',
      'chat-mark-seen',
      'chat-send',
      'chat-status',
      'chat-typing',
      'contacts-add',
      'contacts-remove',
      'counter-clean',
      'counter-delete',
      'counter-series',
      'counter-update',
      'guild-info',
      'guild-join',
      'guild-mine',
      'guild-reindex',
      'guild-release',
      'guild-reserve',
      'guild-search',
      'lease-acquire',
      'lease-refresh',
      'lease-release',
      'lease-state',
      'location-append',
      'location-commit',
      'location-create',
      'location-forget',
      'location-prune-consumers',
      'mailbox-ack',
      'mailbox-send',
      'mailbox-take',
      'market-delist',
      'market-grant-funds',
      'market-grant-item',
      'market-list',
      'market-page',
      'market-purchase',
      'market-reprice',
      'market-sale-task',
      'push-target-release',
      'push-target-remove',
      'push-target-set',
      'row-cache-claim',
      'row-cache-list',
      'row-cache-retry',
      'row-cache-schedule',
      'row-cache-store',
      'task-cancel',
      'task-depth',
      'task-enqueue',
      'task-extend',
      'task-list',
      'task-next',
      'task-pause',
      'task-progress',
      'task-promote',
      'task-remove',
      'task-reschedule',
      'task-retry',
      'task-schedule-due',
      'task-schedule-remove',
      'task-schedule-set',
      'task-schedule-tick',
    ]);
  });

  it.each(sources)('%s opens with a header naming its KEYS and ARGV', (name, lua) => {
    const header = lua
      .split('\n')
      .filter((line) => line.startsWith('--'))
      .join('\n');
    expect(header.startsWith(`-- ${name}:`)).toBe(true);
    expect(header).toMatch(/KEYS\[/);
    expect(header).toMatch(/ARGV\[/);
    expect(header).toMatch(/Returns/);
  });
});

describe('translateScriptError', () => {
  it('turns a script error code into a typed error with the message', () => {
    const error = translateScriptError(new Error('E_FUTURE at is too far ahead'));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'BAD_USER_INPUT', message: 'at is too far ahead' });
  });

  it('passes other errors through unchanged', () => {
    const original = new Error('Connection is closed.');
    expect(translateScriptError(original)).toBe(original);
  });
});
