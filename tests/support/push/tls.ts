// The TLS certificate of a local push service: self-signed, for 127.0.0.1, ::1, localhost and any
// test host name, and its own CA, so the client under test is told to trust exactly it.
import { randomBytes } from 'node:crypto';
import { generate } from 'selfsigned';

export async function selfSignedCertificate(hosts: string[] = []): Promise<{ key: string; cert: string }> {
  const names = ['localhost', ...hosts.filter((host) => host !== 'localhost' && !/^[\d.]+$|:/.test(host))];
  // A subject of its own: OpenSSL finds a trusted CA by subject, and two services' certificates
  // with one subject, both trusted, would be checked against the wrong key.
  const subject = `local push service ${randomBytes(6).toString('hex')}`;
  const { private: key, cert } = await generate([{ name: 'commonName', value: subject }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...names.map((value) => ({ type: 2 as const, value })),
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { key, cert };
}
