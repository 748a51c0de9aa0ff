import { describe, expect, it } from 'vitest';
import {
  signClientAddressHeader,
  signIdentityHeader,
  verifyAnyIdentityHeader,
  verifyClientAddressHeader,
} from './identity';

const secret = 'a test secret of at least 32 characters';

describe('the signed client address', () => {
  it('verifies with its key within 60 s, and not otherwise', () => {
    const now = Date.now();
    const value = signClientAddressHeader('2001:db8::7', secret, now);
    expect(verifyClientAddressHeader(value, secret, now)).toBe('2001:db8::7');
    expect(verifyClientAddressHeader(value, secret, now + 59_000)).toBe('2001:db8::7');
    expect(verifyClientAddressHeader(value, secret, now + 61_000)).toBeNull();
    expect(verifyClientAddressHeader(value, `${secret}x`, now)).toBeNull();
    expect(verifyClientAddressHeader(`${value}.x`, secret, now)).toBeNull();
    expect(verifyClientAddressHeader('203.0.113.7', secret, now)).toBeNull();
    expect(verifyClientAddressHeader(undefined, secret, now)).toBeNull();
  });

  it('is never taken for an identity, nor an identity for an address', () => {
    const address = signClientAddressHeader('203.0.113.7', secret);
    const identity = signIdentityHeader({ userId: 'u', sessionId: 's' }, secret);
    expect(verifyAnyIdentityHeader(address, secret)).toBeNull();
    expect(verifyClientAddressHeader(identity, secret)).toBeNull();
  });
});
