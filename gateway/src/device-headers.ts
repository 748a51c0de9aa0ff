// The identity header the gateway signs for a paired display's calls (issue 40): one HMAC, a JSON and two base64
// encodings per call were about 3 % of the gateway's CPU under the screens load (docs/scale.md). A display calls
// several times a period, so its header is signed once and reused for REUSE_MS: a service accepts a header up to
// IDENTITY_MAX_AGE_SECONDS (60) old, and the gateway has checked the display's token (and its revocation) before each
// call, so a reused header never outlives a check.
import { setNewest, signDeviceIdentityHeader } from '@pagecast/service-kit';

/** How long one display's signed header is reused (well within the services' 60 s). */
export const REUSE_MS = 10_000;
/** Displays remembered (the oldest goes first). */
const MAX_DEVICES = 50_000;

interface Device {
  deviceId: string;
  screenId: string;
  ownerId: string;
}

export function createDeviceHeaders(secret: string, opts: { reuseMs?: number; max?: number } = {}) {
  const reuseMs = opts.reuseMs ?? REUSE_MS;
  const max = opts.max ?? MAX_DEVICES;
  const recent = new Map<string, { header: string; at: number; screenId: string; ownerId: string }>();
  return (device: Device, now = Date.now()): string => {
    const hit = recent.get(device.deviceId);
    if (
      hit &&
      now >= hit.at &&
      now - hit.at < reuseMs &&
      hit.screenId === device.screenId &&
      hit.ownerId === device.ownerId
    ) {
      return hit.header;
    }
    const header = signDeviceIdentityHeader(device, secret, now);
    setNewest(recent, device.deviceId, { header, at: now, screenId: device.screenId, ownerId: device.ownerId }, max);
    return header;
  };
}
