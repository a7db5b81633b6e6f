// Everything a server started, undone in reverse order: on stop(), or when a later step of
// starting fails. A step that fails is logged and the rest still run.
import type { Logger } from '../common/logger';

export class Teardown {
  private readonly steps: (() => Promise<void>)[] = [];

  constructor(private readonly logger: Logger) {}

  add(step: () => Promise<void>): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      await step().catch((error: unknown) => this.logger.error({ err: error }, 'error during shutdown'));
    }
  }
}
