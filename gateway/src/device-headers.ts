// The identity header the gateway signs for a paired display's calls: one HMAC, a JSON and two base64
// encodings per call were about 3 % of the gateway's CPU under the screens load (docs/scale.md). A display calls
// several times a period, so its header is signed once and reused for REUSE_MS: a service accepts a header up to
// IDENTITY_MAX_AGE_SECONDS (60) old, and the gateway has checked the display's token (and its revocation) before each
// call, so a reused header never outlives a check.
import { LRUCache, signDeviceIdentityHeader } from '@pagecast/service-kit';

/** How long one display's signed header is reused (well within the services' 60 s). */
export const REUSE_MS = 10_000;
/** Displays remembered (the least recently used goes first). */
const MAX_DEVICES = 50_000;

interface Device {
  deviceId: string;
  screenId: string;
  ownerId: string;
}

export function createDeviceHeaders(secret: string, opts: { reuseMs?: number; max?: number } = {}) {
  const reuseMs = opts.reuseMs ?? REUSE_MS;
  const max = opts.max ?? MAX_DEVICES;
  let clock = 0; // the time of the call (tests pass theirs): the reuse is measured in it
  const recent = new LRUCache<string, { header: string; at: number; screenId: string; ownerId: string }>({
    max,
    ttl: reuseMs,
    ttlResolution: 0,
    perf: { now: () => clock },
  });
  return (device: Device, now = Date.now()): string => {
    clock = now;
    const hit = recent.get(device.deviceId);
    // a header signed after `now` (the clock went back) is not given out
    if (hit && now >= hit.at && hit.screenId === device.screenId && hit.ownerId === device.ownerId) return hit.header;
    const header = signDeviceIdentityHeader(device, secret, now);
    recent.set(
      device.deviceId,
      { header, at: now, screenId: device.screenId, ownerId: device.ownerId },
      { start: now },
    );
    return header;
  };
}
