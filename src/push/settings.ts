// Settings of push to devices that sleep: when a push is decided and how long it may wait, which
// providers are set up (Web Push, APNs, FCM) and where they are, and which endpoints are taken.
import { z } from 'zod';
import { commaList, flag, int, parsed, text, type SettingDomain, type SettingsReader } from '../common/settings';

/** https, or http on a loopback host (a provider stand-in run by the tests or on a laptop). */
function isServiceUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return false;
    if (url.protocol === 'https:') return true;
    return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

const serviceUrl = z
  .string()
  .max(2000)
  .refine(isServiceUrl, {
    error: 'must be an https URL without user, query or fragment (http only on a loopback host)',
  })
  .transform((value) => value.replace(/\/+$/, ''));

const base64url = (bytes: number, what: string) =>
  z.string().refine((value) => /^[A-Za-z0-9_-]+$/.test(value) && Buffer.from(value, 'base64url').length === bytes, {
    error: `must be ${what}, base64url (${bytes} bytes)`,
  });

const hostList = z.string().transform((value, context) => {
  const hosts = commaList(value.toLowerCase());
  if (hosts.length > 50 || !hosts.every((host) => /^([a-z0-9-]+\.)*[a-z0-9-]+$/.test(host))) {
    context.addIssue({ code: 'custom', message: `must be at most 50 host names, comma-separated, got "${value}"` });
    return z.NEVER;
  }
  return hosts;
});

const SETTINGS = {
  PUSH_DELAY_MS: int({
    default: 3000,
    min: 0,
    max: 600_000,
    description:
      'How long after an entry lands a device with no live subscription is pushed to, unless it pulled or read meanwhile. A burst within it is one push.',
  }),
  PUSH_MAX_AGE_SECONDS: int({
    default: 86_400,
    defaultText: '`86400` (a day)',
    min: 60,
    max: 2_419_200,
    description: 'A push not delivered within this long is dropped, not delivered late.',
  }),
  PUSH_RETRY_MS: int({
    default: 5000,
    min: 100,
    max: 3_600_000,
    description: 'Wait before a failed push is tried again; doubled each time, up to `TASK_MAX_BACKOFF_MS`.',
  }),
  PUSH_TIMEOUT_MS: int({
    default: 10_000,
    min: 100,
    max: 120_000,
    description: "Longest wait for a provider's answer to one push; a slower one is tried again later.",
  }),
  PUSH_PRESENCE_TTL_MS: int({
    default: 30_000,
    min: 1000,
    max: 600_000,
    description:
      "How long a crashed instance's sockets still count as online (no push to their devices). Live instances renew their sockets' presence every third of it.",
  }),
  PUSH_CONCURRENCY: int({ default: 32, min: 1, max: 1024, description: 'Pushes sent at once per process.' }),
  PUSH_WORKER: flag({
    default: true,
    description:
      'Send pushes from this process (the API, or `npm run worker`) when a provider is set up. Turn off on API instances to send from workers only.',
  }),
  PUSH_VAPID_PUBLIC_KEY: parsed({
    type: 'text',
    default: undefined,
    schema: base64url(65, 'an uncompressed P-256 public key'),
    description: 'Web Push: the VAPID public key (RFC 8292), as browsers take it in `applicationServerKey`.',
  }),
  PUSH_VAPID_PRIVATE_KEY: parsed({
    type: 'text',
    default: undefined,
    schema: base64url(32, 'a P-256 private key'),
    description: 'Web Push: the VAPID private key. Web Push is on when both keys and the subject are set.',
  }),
  PUSH_VAPID_SUBJECT: parsed({
    type: 'text',
    default: undefined,
    schema: z
      .string()
      .max(500)
      .refine((value) => /^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/.test(value), {
        error: 'must be a mailto: or https: URL the push service can reach you at',
      }),
    description: 'Web Push: who sends (a `mailto:` or `https:` URL), told to push services in the VAPID token.',
  }),
  PUSH_ENDPOINT_HOSTS: parsed({
    type: 'list',
    default: undefined,
    defaultText: 'any public host',
    schema: hostList,
    description:
      'Web Push endpoints only on these hosts or their subdomains (e.g. `fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com`).',
  }),
  PUSH_ALLOW_PRIVATE_ENDPOINTS: flag({
    default: undefined,
    defaultText: '`on` unless production',
    description:
      'Take Web Push endpoints on loopback, private and link-local addresses (local receivers). Never wanted in production.',
  }),
  PUSH_APNS_KEY_FILE: text({
    default: undefined,
    description:
      'APNs: path of the token-signing key (`AuthKey_<id>.p8`). APNs is on when the key, its id, the team and the topic are set.',
  }),
  PUSH_APNS_KEY_ID: parsed({
    type: 'text',
    default: undefined,
    schema: z.string().regex(/^[A-Z0-9]{10}$/, { error: 'must be the 10-character key id Apple shows' }),
    description: 'APNs: the key id.',
  }),
  PUSH_APNS_TEAM_ID: parsed({
    type: 'text',
    default: undefined,
    schema: z.string().regex(/^[A-Z0-9]{10}$/, { error: 'must be the 10-character team id' }),
    description: 'APNs: the team id.',
  }),
  PUSH_APNS_TOPIC: parsed({
    type: 'text',
    default: undefined,
    schema: z.string().regex(/^[A-Za-z0-9.-]{1,200}$/, { error: "must be the app's bundle id" }),
    description: "APNs: the app's bundle id (`apns-topic`).",
  }),
  PUSH_APNS_URL: parsed({
    type: 'URL',
    default: 'https://api.push.apple.com',
    defaultText: '`https://api.push.apple.com`',
    schema: serviceUrl,
    description: 'APNs: where production tokens are pushed.',
  }),
  PUSH_APNS_SANDBOX_URL: parsed({
    type: 'URL',
    default: 'https://api.sandbox.push.apple.com',
    defaultText: '`https://api.sandbox.push.apple.com`',
    schema: serviceUrl,
    description: 'APNs: where sandbox (development build) tokens are pushed.',
  }),
  PUSH_APNS_CA_FILE: text({
    default: undefined,
    description: "APNs: a CA certificate (PEM) to trust besides the system's, for a local APNs stand-in.",
  }),
  PUSH_FCM_CREDENTIALS_FILE: text({
    default: undefined,
    description: 'FCM: path of the service account key (JSON, from the Firebase console). FCM is on when set.',
  }),
  PUSH_FCM_URL: parsed({
    type: 'URL',
    default: 'https://fcm.googleapis.com',
    defaultText: '`https://fcm.googleapis.com`',
    schema: serviceUrl,
    description: 'FCM: the HTTP v1 API.',
  }),
  PUSH_FCM_TOKEN_URL: parsed({
    type: 'URL',
    default: undefined,
    defaultText: "the credentials' `token_uri`",
    schema: serviceUrl,
    description: 'FCM: where the service account trades its signed assertion for an access token.',
  }),
} as const;

export const PUSH_SETTINGS: SettingDomain = {
  title: 'Push',
  summary:
    'Pushes to devices with no socket open: Web Push, APNs and FCM. A provider is on when its credentials are set (docs/push.md).',
  settings: SETTINGS,
};

export interface PushConfig {
  delayMs: number;
  maxAgeSeconds: number;
  retryMs: number;
  timeoutMs: number;
  /** How long an instance's hold on a device's presence lasts unless renewed (PushPresence). */
  presenceTtlMs: number;
  concurrency: number;
  /** Whether this process sends pushes (when any provider is set up). */
  worker: boolean;
  webPush?: { publicKey: string; privateKey: string; subject: string };
  /** undefined: any public host. */
  endpointHosts: string[] | undefined;
  allowPrivateEndpoints: boolean;
  apns?: {
    keyFile: string;
    keyId: string;
    teamId: string;
    topic: string;
    url: string;
    sandboxUrl: string;
    caFile: string | undefined;
  };
  fcm?: { credentialsFile: string; url: string; tokenUrl: string | undefined };
}

/** The names of a group of settings that are set only together. */
function together(reader: SettingsReader, names: string[], what: string): boolean {
  const set = names.filter((name) => reader.isSet(name));
  if (set.length > 0 && set.length < names.length) {
    const missing = names.filter((name) => !set.includes(name));
    reader.problem(missing[0], `${what} needs ${names.join(', ')}; ${missing.join(', ')} unset`);
  }
  return set.length === names.length;
}

export function readPush(reader: SettingsReader, isProduction: boolean): PushConfig {
  const v = reader.read(SETTINGS);
  const web = together(reader, ['PUSH_VAPID_PUBLIC_KEY', 'PUSH_VAPID_PRIVATE_KEY', 'PUSH_VAPID_SUBJECT'], 'Web Push');
  const apns = together(
    reader,
    ['PUSH_APNS_KEY_FILE', 'PUSH_APNS_KEY_ID', 'PUSH_APNS_TEAM_ID', 'PUSH_APNS_TOPIC'],
    'APNs',
  );
  return {
    delayMs: v.PUSH_DELAY_MS,
    maxAgeSeconds: v.PUSH_MAX_AGE_SECONDS,
    retryMs: v.PUSH_RETRY_MS,
    timeoutMs: v.PUSH_TIMEOUT_MS,
    presenceTtlMs: v.PUSH_PRESENCE_TTL_MS,
    concurrency: v.PUSH_CONCURRENCY,
    worker: v.PUSH_WORKER,
    webPush:
      web && v.PUSH_VAPID_PUBLIC_KEY && v.PUSH_VAPID_PRIVATE_KEY && v.PUSH_VAPID_SUBJECT
        ? { publicKey: v.PUSH_VAPID_PUBLIC_KEY, privateKey: v.PUSH_VAPID_PRIVATE_KEY, subject: v.PUSH_VAPID_SUBJECT }
        : undefined,
    endpointHosts: v.PUSH_ENDPOINT_HOSTS,
    allowPrivateEndpoints: v.PUSH_ALLOW_PRIVATE_ENDPOINTS ?? !isProduction,
    apns:
      apns && v.PUSH_APNS_KEY_FILE && v.PUSH_APNS_KEY_ID && v.PUSH_APNS_TEAM_ID && v.PUSH_APNS_TOPIC
        ? {
            keyFile: v.PUSH_APNS_KEY_FILE,
            keyId: v.PUSH_APNS_KEY_ID,
            teamId: v.PUSH_APNS_TEAM_ID,
            topic: v.PUSH_APNS_TOPIC,
            url: v.PUSH_APNS_URL,
            sandboxUrl: v.PUSH_APNS_SANDBOX_URL,
            caFile: v.PUSH_APNS_CA_FILE,
          }
        : undefined,
    fcm: v.PUSH_FCM_CREDENTIALS_FILE
      ? { credentialsFile: v.PUSH_FCM_CREDENTIALS_FILE, url: v.PUSH_FCM_URL, tokenUrl: v.PUSH_FCM_TOKEN_URL }
      : undefined,
  };
}
