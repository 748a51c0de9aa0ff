// The identity header of a display's calls: signed once per display and reused for a while, always one a
// service accepts, never another display's.
import { randomUUID } from 'node:crypto';
import { verifyAnyIdentityHeader } from '@pagecast/service-kit';
import { describe, expect, it } from 'vitest';
import { createDeviceHeaders, REUSE_MS } from '../src/device-headers';

const secret = 'a-test-secret-of-at-least-32-characters';
const device = () => ({ deviceId: randomUUID(), screenId: randomUUID(), ownerId: randomUUID() });

describe("a display's identity header", () => {
  it('is signed once and reused within REUSE_MS, then signed again; a service accepts each', () => {
    const header = createDeviceHeaders(secret);
    const d = device();
    const t0 = Date.now();
    const first = header(d, t0);
    expect(header(d, t0 + REUSE_MS - 1)).toBe(first);
    // a service checks it against its own clock: still valid when reused to the end
    expect(verifyAnyIdentityHeader(first, secret, t0 + REUSE_MS - 1)).toMatchObject({ kind: 'device', ...d });
    const later = header(d, t0 + REUSE_MS + 1000);
    expect(later).not.toBe(first);
    expect(verifyAnyIdentityHeader(later, secret, t0 + REUSE_MS + 1000)).toMatchObject({ kind: 'device', ...d });
  });

  it("never gives a display another's header, nor one naming an old screen or owner", () => {
    const header = createDeviceHeaders(secret);
    const a = device();
    const b = device();
    const t0 = Date.now();
    const ofA = header(a, t0);
    const ofB = header(b, t0);
    expect(ofB).not.toBe(ofA);
    expect(verifyAnyIdentityHeader(ofB, secret, t0)).toMatchObject(b);
    // the same device paired again to another screen (a new token): a header naming the new screen at once
    const moved = { ...a, screenId: randomUUID() };
    expect(verifyAnyIdentityHeader(header(moved, t0 + 1), secret, t0 + 1)).toMatchObject(moved);
  });

  it('keeps at most `max` displays (the oldest goes first)', () => {
    const header = createDeviceHeaders(secret, { max: 2 });
    const [a, b, c] = [device(), device(), device()];
    const t0 = Date.now();
    const ofA = header(a, t0);
    header(b, t0);
    header(c, t0);
    // a was dropped: signed again (a different iat makes a different header)
    expect(header(a, t0 + 1000)).not.toBe(ofA);
  });
});
