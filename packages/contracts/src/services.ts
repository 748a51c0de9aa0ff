import { z } from 'zod';

export const ServiceName = z.enum(['account', 'file-conversion', 'marketplace', 'billing', 'screens']);
export type ServiceName = z.infer<typeof ServiceName>;

/**
 * Path prefixes each service owns at the gateway (docs/platform.md "HTTP routing"). Longest prefix wins.
 * A prefix matches the path itself or anything after it (`/api/files` matches `/api/files/abc`).
 */
export const servicePrefixes: ReadonlyArray<{ prefix: string; service: ServiceName }> = [
  { prefix: '/api/auth/', service: 'account' },
  { prefix: '/api/user/', service: 'account' },
  { prefix: '/api/contact', service: 'account' },
  { prefix: '/api/login', service: 'account' },
  { prefix: '/api/logout', service: 'account' },
  { prefix: '/api/workspaces', service: 'account' },
  { prefix: '/api/invitations/', service: 'account' },
  { prefix: '/api/files', service: 'file-conversion' },
  { prefix: '/api/playlists', service: 'file-conversion' },
  { prefix: '/api/dashboard/', service: 'file-conversion' },
  { prefix: '/media/', service: 'file-conversion' },
  { prefix: '/api/marketplace', service: 'marketplace' },
  { prefix: '/api/points/', service: 'billing' },
  { prefix: '/api/membership/', service: 'billing' },
  { prefix: '/api/create-payment-intent', service: 'billing' },
  { prefix: '/api/payments/', service: 'billing' },
  { prefix: '/api/screens', service: 'screens' },
  { prefix: '/api/billing/', service: 'billing' },
];

/** The service that owns a path (query string ignored), or undefined for gateway-owned and unknown paths. */
export function serviceForPath(path: string): ServiceName | undefined {
  const clean = path.split('?')[0] ?? '';
  let best: { prefix: string; service: ServiceName } | undefined;
  for (const entry of servicePrefixes) {
    if (clean.startsWith(entry.prefix) && (!best || entry.prefix.length > best.prefix.length)) best = entry;
  }
  return best?.service;
}
