// Paired displays (screens): the device cookie holds an EdDSA JWT signed by the screens service. It is
// verified here against screens' JWKS, locally like a session, and honoured only while its device is not revoked
// (screens.screen.revoked.v1, read from the SCREENS stream by the revocation feed).
import { DeviceClaims } from '@pagecast/contracts';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { Logger } from './log';
import type { RevocationStore } from './revocations';
import { VerifiedTokens } from './verified';

export interface DeviceIdentity {
  deviceId: string;
  screenId: string;
  ownerId: string;
}

export type DeviceOutcome =
  | { kind: 'none' }
  | { kind: 'valid'; device: DeviceIdentity }
  | { kind: 'invalid' } // bad, expired or revoked: the cookie is cleared and the display pairs again
  | { kind: 'unavailable' }; // screens' keys unreachable: anonymous for now, the cookie is kept

/** Device tokens whose signature is held as checked: a fleet's (a display holds one at a time, renewed now and then). */
const DEVICE_TOKENS_HELD = 50_000;

export function createDeviceVerifier(opts: { jwksUrl: string; revocations: RevocationStore; logger: Logger }) {
  const jwks = createRemoteJWKSet(new URL(opts.jwksUrl), { timeoutDuration: 3000, cooldownDuration: 30_000 });
  // Signatures already checked (never past exp); the revocation check still runs every time. Held for the whole
  // fleet and for 15 minutes: a display reads over HTTP only at its start and after a change (minutes apart), and
  // at each change every display's read came after the 60 s a member's session is held, so each paid an EdDSA
  // verification in the burst (7 % of the gateway's CPU at 5,000 displays). A token's signature does not age.
  const verified = new VerifiedTokens<DeviceIdentity>(DEVICE_TOKENS_HELD, 15 * 60_000);
  return {
    async check(token: string | undefined): Promise<DeviceOutcome> {
      if (!token) return { kind: 'none' };
      const known = verified.get(token);
      if (known) return opts.revocations.has(known.deviceId) ? { kind: 'invalid' } : { kind: 'valid', device: known };
      try {
        const { payload } = await jwtVerify(token, jwks, { algorithms: ['EdDSA'] });
        const claims = DeviceClaims.safeParse(payload);
        if (!claims.success || opts.revocations.has(claims.data.sub)) return { kind: 'invalid' };
        const device = { deviceId: claims.data.sub, screenId: claims.data.scr, ownerId: claims.data.own };
        verified.set(token, device, claims.data.exp);
        return { kind: 'valid', device };
      } catch (err) {
        if (
          !(err instanceof errors.JOSEError) ||
          ['ERR_JOSE_GENERIC', 'ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID'].includes(err.code)
        ) {
          opts.logger.warn({ err }, 'device check: screens key set unreachable');
          return { kind: 'unavailable' };
        }
        return { kind: 'invalid' };
      }
    },
  };
}
export type DeviceVerifier = ReturnType<typeof createDeviceVerifier>;
