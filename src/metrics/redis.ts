// Redis commands of the command connection (redis/client/command-timing.ts): latency by command
// (a Lua script by its name), and failures by command and kind.
import type { Registry } from 'prom-client';
import type { CommandFailure, CommandObserver } from '../redis/client/command-timing';
import { BoundedLabel } from './labels';
import { COMMAND_SECONDS, FastCounter, FastHistogram, type HistogramChild } from './fast';

/** The product sends about 40 commands and 70 scripts. */
const MAX_COMMANDS = 150;

export class RedisCommandMetrics implements CommandObserver {
  private readonly latency: FastHistogram;
  private readonly errors: FastCounter;
  private readonly commands = new BoundedLabel(MAX_COMMANDS);
  private readonly byCommand = new Map<string, HistogramChild>();

  constructor(registry: Registry) {
    this.latency = new FastHistogram(
      'ria_redis_command_duration_seconds',
      'Time from a Redis command sent to its reply, by command (script:<name> for a Lua script), failures included',
      ['command'],
      registry,
      COMMAND_SECONDS,
    );
    this.errors = new FastCounter(
      'ria_redis_command_errors_total',
      "Redis commands that failed, by command and kind: reply (Redis refused it; a script's own refusal is not counted), timeout, connection",
      ['command', 'kind'],
      registry,
    );
  }

  observe(command: string, seconds: number, failure: CommandFailure | undefined): void {
    let latency = this.byCommand.get(command);
    if (!latency) this.byCommand.set(command, (latency = this.latency.child(this.commands.of(command))));
    latency.observe(seconds);
    if (failure) this.errors.child(this.commands.of(command), failure).inc();
  }
}
