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

export function createDeviceVerifier(opts: { jwksUrl: string; revocations: RevocationStore; logger: Logger }) {
  const jwks = createRemoteJWKSet(new URL(opts.jwksUrl), { timeoutDuration: 3000, cooldownDuration: 30_000 });
  // Signatures already checked (at most 60 s, never past exp); the revocation check still runs every time.
  const verified = new VerifiedTokens<DeviceIdentity>();
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
