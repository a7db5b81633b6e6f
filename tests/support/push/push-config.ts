// A PushConfig for tests that build the product's senders directly: nothing set up unless given,
// short waits, private endpoints allowed (the local services are on loopback).
import type { PushConfig } from '../../../src/push/settings';

export function testPushConfig(overrides: Partial<PushConfig> = {}): PushConfig {
  return {
    delayMs: 0,
    maxAgeSeconds: 86_400,
    retryMs: 1000,
    timeoutMs: 10_000,
    concurrency: 8,
    presenceTtlMs: 30_000,
    worker: true,
    endpointHosts: undefined,
    allowPrivateEndpoints: true,
    ...overrides,
  };
}
