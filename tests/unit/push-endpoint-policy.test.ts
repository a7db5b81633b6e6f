// Which Web Push endpoints are taken: local addresses in every spelling refused unless allowed,
// https required (http only on a local address that is allowed), the optional list of hosts.
import { endpointProblem, isPrivateAddress } from '../../src/push/endpoint-policy';

const production = { allowPrivateEndpoints: false, endpointHosts: undefined };
const local = { allowPrivateEndpoints: true, endpointHosts: undefined };

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '[::1]',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '::ffff:0:a9fe:a9fe',
    'localhost',
    'not an address',
  ])('takes %s as local', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '[2606:4700::1111]',
  ])('takes %s as public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('endpointProblem', () => {
  it('takes a public https endpoint, and refuses what is no absolute URL, or carries credentials or a fragment', () => {
    expect(endpointProblem('https://fcm.googleapis.com/fcm/send/abc:def', production)).toBeUndefined();
    expect(endpointProblem('https://[2606:4700::1111]:8443/push/1', production)).toBeUndefined();
    expect(endpointProblem('/relative/path', production)).toBe('must be an absolute URL');
    expect(endpointProblem('https://user:pw@push.example.net/1', production)).toBe('must not carry a user or password');
    expect(endpointProblem('https://push.example.net/1#x', production)).toBe('must not carry a fragment');
    expect(endpointProblem(`https://push.example.net/${'a'.repeat(2030)}`, production)).toBe(
      'must be at most 2048 characters',
    );
  });

  it.each([
    'https://127.0.0.1/push',
    'https://localhost:8443/push',
    'https://receiver.localhost/push',
    'https://10.0.0.5/push',
    'https://[::1]:9000/push',
    'https://[::ffff:7f00:1]/push',
    'https://169.254.169.254/latest',
    'http://192.168.0.10/push',
  ])('refuses %s unless private endpoints are allowed', (endpoint) => {
    expect(endpointProblem(endpoint, production)).toBe('must not be on a loopback or private address');
    expect(endpointProblem(endpoint, local)).toBeUndefined();
  });

  it('takes http only on an allowed local address', () => {
    expect(endpointProblem('http://push.example.net/1', local)).toBe('must be an https URL');
    expect(endpointProblem('ftp://127.0.0.1/1', local)).toBe('must be an https URL');
    expect(endpointProblem('http://127.0.0.1:4000/1', local)).toBeUndefined();
  });

  it('takes only the listed hosts and their subdomains when a list is set', () => {
    const listed = { allowPrivateEndpoints: false, endpointHosts: ['push.apple.com', 'fcm.googleapis.com'] };
    expect(endpointProblem('https://web.push.apple.com/QGz', listed)).toBeUndefined();
    expect(endpointProblem('https://FCM.googleapis.com/fcm/send/x', listed)).toBeUndefined();
    expect(endpointProblem('https://push.apple.com.evil.example/x', listed)).toBe(
      'must be on one of the push services this server takes (push.apple.com, fcm.googleapis.com)',
    );
    expect(endpointProblem('https://notpush.apple.com/x', listed)).toMatch(/^must be on one of/);
  });
});
