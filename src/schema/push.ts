// GraphQL types of push targets: where a device that has no socket open is pushed to.
import { ArgsType, Field, Float, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { NAME_RULE } from '../common/validation';
import { enumOf } from './enums';
import { TS } from './chat';

const PUSH_KIND_NAMES = ['WEB_PUSH', 'APNS', 'FCM'] as const;
const APNS_ENVIRONMENTS = ['PRODUCTION', 'SANDBOX'] as const;
export type PushKindName = (typeof PUSH_KIND_NAMES)[number];
type ApnsEnvironmentName = (typeof APNS_ENVIRONMENTS)[number];
const PushKind = enumOf(PUSH_KIND_NAMES);
const ApnsEnvironment = enumOf(APNS_ENVIRONMENTS);

registerEnumType(PushKind, {
  name: 'PushKind',
  description:
    'WEB_PUSH: a browser subscription (RFC 8030, VAPID); APNS: an Apple device token; FCM: a Firebase registration token.',
});
registerEnumType(ApnsEnvironment, {
  name: 'ApnsEnvironment',
  description: 'Which APNs a token belongs to: SANDBOX for development builds, PRODUCTION otherwise.',
});

@ObjectType({
  description:
    "Where one of the caller's devices is pushed to when it has no subscription open: ids and counts only, never text. Keys and whole tokens are never shown.",
})
export class PushTarget {
  @Field({ description: 'The device, as it fetches chats.' })
  device!: string;

  @Field(() => PushKind)
  kind!: PushKindName;

  @Field(() => Float, { description: `When it was registered. ${TS}` })
  registeredAt!: number;

  @Field(() => String, { nullable: true, description: "WEB_PUSH: the endpoint's host (the push service)." })
  endpointHost!: string | null;

  @Field(() => String, { nullable: true, description: "APNS and FCM: the token's last 6 characters." })
  tokenEnd!: string | null;
}

@ObjectType({ description: 'The kinds of push this server sends, and what a browser needs to subscribe.' })
export class PushProviders {
  @Field(() => [PushKind], { description: 'Those set up on this server; setPushTarget refuses the others.' })
  kinds!: PushKindName[];

  @Field(() => String, {
    nullable: true,
    description:
      "The VAPID public key (base64url), for PushManager.subscribe's applicationServerKey; null when Web Push is not set up.",
  })
  webPushPublicKey!: string | null;
}

@InputType({ description: 'A Web Push subscription: the fields of PushSubscription.toJSON().' })
export class WebPushSubscriptionInput {
  @Field({
    description:
      "The push service's URL for the subscription: https, on a public address (PUSH_ALLOW_PRIVATE_ENDPOINTS), on PUSH_ENDPOINT_HOSTS when set.",
  })
  endpoint!: string;

  @Field({ description: "keys.p256dh: the browser's P-256 public key, uncompressed (65 bytes), base64url or base64." })
  p256dh!: string;

  @Field({ description: 'keys.auth: the 16-byte authentication secret, base64url or base64.' })
  auth!: string;
}

@InputType({ description: 'An APNs device token.' })
export class ApnsTokenInput {
  @Field({ description: 'The device token, hex: 64 to 200 digits.' })
  token!: string;

  @Field(() => ApnsEnvironment, { defaultValue: 'PRODUCTION' })
  environment!: ApnsEnvironmentName;
}

@InputType({ description: 'An FCM registration token.' })
export class FcmTokenInput {
  @Field({ description: '1 to 4096 characters of A-Z a-z 0-9 _ : -.' })
  token!: string;
}

const DEVICE = `One of the caller's devices, as it fetches chats (fetchPendingMessages' \`device\`): ${NAME_RULE}.`;

@ArgsType()
export class SetPushTargetArgs {
  @Field({ description: `${DEVICE} It must be live: fetch with it once before registering.` })
  device!: string;

  @Field(() => WebPushSubscriptionInput, { nullable: true })
  webPush?: WebPushSubscriptionInput | null;

  @Field(() => ApnsTokenInput, { nullable: true })
  apns?: ApnsTokenInput | null;

  @Field(() => FcmTokenInput, { nullable: true })
  fcm?: FcmTokenInput | null;
}

@ArgsType()
export class PushDeviceArgs {
  @Field({ description: DEVICE })
  device!: string;
}
