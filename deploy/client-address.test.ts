import { describe, expect, it } from 'vitest';
import { clientPlaces, gatewayClientAddress } from './client-address';

// The helper itself, on settings whose answer is known: the checks of compose.test.ts and k8s.test.ts rely on it.
describe('gatewayClientAddress (express over the gateway’s TRUST_PROXY parsing)', () => {
  it('trusting nothing: the connection', () => {
    expect(gatewayClientAddress('false', '192.168.1.5', '203.0.113.9')).toBe('192.168.1.5');
  });
  it('trusting one hop: the last entry, the one that hop wrote', () => {
    expect(gatewayClientAddress('1', '10.0.0.2', '203.0.113.9, 192.168.1.5')).toBe('192.168.1.5');
  });
  it('trusting private ranges: a client on a private network chooses its address (the old Kubernetes setting)', () => {
    for (const client of clientPlaces.filter((c) => c !== '203.0.113.5'))
      expect(gatewayClientAddress('loopback, linklocal, uniquelocal', '10.0.0.2', `203.0.113.9, ${client}`)).toBe(
        '203.0.113.9',
      );
  });
});
