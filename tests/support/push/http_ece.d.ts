// The part of http_ece (no published types) the Web Push receiver uses to decrypt what it gets.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface DecryptParams {
    version?: 'aes128gcm';
    /** The receiver's key pair; the sender's public key comes from the aes128gcm header. */
    privateKey: ECDH;
    /** The subscription's auth secret, base64url or bytes. */
    authSecret: string | Buffer;
  }

  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
}
