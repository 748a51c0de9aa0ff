import { createHash } from 'node:crypto';

/**
 * A UUID derived from a name (same name → same id), for events whose id must not change when a crashed step is
 * run again: the JetStream duplicate window and the consumers' idempotency then drop the repeat.
 */
export function uuidFrom(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  const variant = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
