// Push targets: each caller registers, lists and removes the targets of their own devices only,
// and learns which kinds of push this server sends.
import { Args, Authorized, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import { unixSeconds } from '../common/time';
import { validName } from '../common/validation';
import type { PushConfig } from '../push/settings';
import { pushKindsSetUp, validPushTarget } from '../push/target-validation';
import type { PushKind } from '../push/types';
import type { PushTargets, RegisteredPushTarget } from '../redis/push/targets';
import { callerId, type GraphQLContext } from '../schema/context';
import { PushDeviceArgs, PushProviders, PushTarget, SetPushTargetArgs, type PushKindName } from '../schema/push';

const KIND_NAMES: Record<PushKind, PushKindName> = { webpush: 'WEB_PUSH', apns: 'APNS', fcm: 'FCM' };

/** What may be shown of a target: never its keys, nor more of a token than its end. */
function toPushTarget({ device, target, at }: RegisteredPushTarget): PushTarget {
  return {
    device,
    kind: KIND_NAMES[target.kind],
    registeredAt: unixSeconds(at),
    endpointHost: target.kind === 'webpush' ? new URL(target.endpoint).hostname : null,
    tokenEnd: target.kind === 'webpush' ? null : target.token.slice(-6),
  };
}

@Resolver()
export class PushResolver {
  constructor(
    private readonly targets: PushTargets,
    private readonly settings: PushConfig,
  ) {}

  @Authorized()
  @Mutation(() => PushTarget, {
    description:
      "Registers where one of the caller's devices is pushed to when it has no subscription open: exactly one of webPush, apns and fcm, in place of the device's previous target. The same endpoint or token on another device (the caller's or, after a phone changed hands, anyone's) moves here. Refusals carry a `reason` in their extensions (docs/push.md).",
  })
  async setPushTarget(
    @Args() { device, webPush, apns, fcm }: SetPushTargetArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<PushTarget> {
    const caller = callerId(context);
    const name = validName(device, 'device');
    const target = validPushTarget({ webPush, apns, fcm }, this.settings);
    return toPushTarget(await this.targets.set(caller, name, target));
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description: "Stops pushes to one of the caller's devices; false when it had no target.",
  })
  async removePushTarget(@Args() { device }: PushDeviceArgs, @Ctx() context: GraphQLContext): Promise<boolean> {
    return this.targets.remove(callerId(context), validName(device, 'device'));
  }

  @Authorized()
  @Query(() => [PushTarget], { description: "The caller's push targets, the most recently registered first." })
  async pushTargets(@Ctx() context: GraphQLContext): Promise<PushTarget[]> {
    return (await this.targets.list(callerId(context))).map(toPushTarget);
  }

  @Authorized()
  @Query(() => PushProviders, {
    description: 'Which kinds of push this server sends, and the VAPID key a browser subscribes with.',
  })
  pushProviders(): PushProviders {
    return {
      kinds: pushKindsSetUp(this.settings).map((kind) => KIND_NAMES[kind]),
      webPushPublicKey: this.settings.webPush?.publicKey ?? null,
    };
  }
}
