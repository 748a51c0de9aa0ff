import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  signDeviceIdentityHeader,
  signIdentityHeader,
  verifyAnyIdentityHeader,
  verifyIdentityHeader,
} from './identity';

const secret = 'a'.repeat(40);
const who = { userId: 'u1', sessionId: 's1' };
const t0 = Date.UTC(2025, 0, 1, 12, 0, 0);

describe('identity header', () => {
  it('a header signed with the secret verifies to the same identity and iat', () => {
    const header = signIdentityHeader(who, secret, t0);
    expect(header).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(verifyIdentityHeader(header, secret, t0 + 5000)).toEqual({ ...who, iat: t0 / 1000 });
  });

  it('a header signed with another secret (forged) is refused', () => {
    const header = signIdentityHeader(who, 'b'.repeat(40), t0);
    expect(verifyIdentityHeader(header, secret, t0)).toBeNull();
  });

  it('a header older than 60 s is refused, one of exactly 60 s is accepted', () => {
    const header = signIdentityHeader(who, secret, t0);
    expect(verifyIdentityHeader(header, secret, t0 + 60_000)).not.toBeNull();
    expect(verifyIdentityHeader(header, secret, t0 + 61_000)).toBeNull();
  });

  it('a header dated more than 60 s in the future is refused', () => {
    const header = signIdentityHeader(who, secret, t0 + 120_000);
    expect(verifyIdentityHeader(header, secret, t0)).toBeNull();
  });

  it('a tampered payload (other user, same signature) is refused', () => {
    const [, signature] = signIdentityHeader(who, secret, t0).split('.');
    const payload = Buffer.from(JSON.stringify({ userId: 'admin', sessionId: 's1', iat: t0 / 1000 })).toString(
      'base64url',
    );
    expect(verifyIdentityHeader(`${payload}.${signature}`, secret, t0)).toBeNull();
  });

  it('a tampered or truncated signature is refused', () => {
    const header = signIdentityHeader(who, secret, t0);
    const last = header.at(-1) === 'A' ? 'B' : 'A';
    expect(verifyIdentityHeader(`${header.slice(0, -1)}${last}`, secret, t0)).toBeNull();
    expect(verifyIdentityHeader(header.slice(0, -4), secret, t0)).toBeNull();
  });

  it('missing or malformed headers are refused', () => {
    expect(verifyIdentityHeader(undefined, secret, t0)).toBeNull();
    expect(verifyIdentityHeader('', secret, t0)).toBeNull();
    expect(verifyIdentityHeader('no-dot', secret, t0)).toBeNull();
    expect(verifyIdentityHeader('a.b.c', secret, t0)).toBeNull();
  });

  it('a correctly signed payload that is not an identity is refused', () => {
    const payload = Buffer.from(JSON.stringify({ userId: 'u1', iat: t0 / 1000 })).toString('base64url');
    const signature = createHmac('sha256', secret).update(payload).digest('base64url');
    expect(verifyIdentityHeader(`${payload}.${signature}`, secret, t0)).toBeNull();
  });
});

describe('device identity header (screens)', () => {
  const secret = 'd'.repeat(32);
  const device = { deviceId: 'd1', screenId: 'scr1', ownerId: 'u1' };

  it('round-trips as a device, which is never a member identity', () => {
    const header = signDeviceIdentityHeader(device, secret);
    expect(verifyAnyIdentityHeader(header, secret)).toMatchObject({ kind: 'device', ...device });
    expect(verifyIdentityHeader(header, secret)).toBeNull();
  });

  it('refuses a header that mixes member and device fields', () => {
    const payload = Buffer.from(
      JSON.stringify({ kind: 'device', ...device, userId: 'u1', sessionId: 's', iat: Math.floor(Date.now() / 1000) }),
    ).toString('base64url');
    const mac = createHmac('sha256', secret).update(payload).digest('base64url');
    expect(verifyAnyIdentityHeader(`${payload}.${mac}`, secret)).toBeNull();
  });
});
