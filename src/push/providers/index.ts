// The product's push senders, one per provider set up: built once at start (key files read and
// checked then, so a bad one stops the process with the setting's name) and closed at the end.
import type { Logger } from '../../common/logger';
import type { PushConfig } from '../settings';
import type { PushKind, PushSender } from '../types';
import { createApnsSender } from './apns';
import { createFcmSender } from './fcm';
import { createWebPushSender } from './web-push';

export type PushSenders = Partial<Record<PushKind, PushSender>>;

export async function createPushSenders(config: PushConfig, logger: Logger): Promise<PushSenders> {
  const senders: PushSenders = {};
  try {
    if (config.webPush !== undefined) senders.webpush = createWebPushSender(config);
    if (config.apns !== undefined) senders.apns = await createApnsSender(config, logger);
    if (config.fcm !== undefined) senders.fcm = await createFcmSender(config, logger);
  } catch (error) {
    await closePushSenders(senders);
    throw error;
  }
  return senders;
}

export async function closePushSenders(senders: PushSenders): Promise<void> {
  await Promise.all(Object.values(senders).map((sender) => sender.close()));
}
