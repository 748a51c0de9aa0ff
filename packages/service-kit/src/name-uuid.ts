import { createHash } from 'node:crypto';

/**
 * The layouts of the name-based ids the services have stored. Each is the first 128 bits of SHA-256(name) with the
 * version nibble, and the variant, written over the hash; they differ only in what was written, so each service
 * keeps the layout its ids have always had.
 *
 * Why not `uuid`'s v5 (SHA-1 of a namespace and the name): it gives every name another id. These ids are stored and
 * compared: the outbox keys its entries by them, JetStream drops a repeated message by them within its window, and
 * every consumer records by them what it has handled. After a deploy that changed the derivation, an event whose
 * first attempt ran on the old version and whose retry runs on the new one (a crashed step, an entry not yet
 * relayed, a purchase settled again) would carry a new id, be published twice and be handled twice, and a retried
 * request would no longer be recognised as the one already done. The same name must keep its id across upgrades.
 */
const LAYOUTS = {
  /** billing's and marketplace's event ids: version nibble 5, the RFC variant bits over the hash's */
  v5: { version: '5', variantFromHash: true },
  /** account's event ids: RFC 9562 version 8 (custom), the RFC variant bits over the hash's */
  v8: { version: '8', variantFromHash: true },
  /** file-conversion's conversion job ids: version nibble 4, variant nibble 8 */
  v4: { version: '4', variantFromHash: false },
} as const;
export type NameUuidLayout = keyof typeof LAYOUTS;

/** The UUID of `name` in `layout` (same name → same id): for messages whose id must survive a crashed step's rerun. */
export function nameUuid(name: string, layout: NameUuidLayout): string {
  const { version, variantFromHash } = LAYOUTS[layout];
  const h = createHash('sha256').update(name).digest('hex');
  const variant = variantFromHash ? ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16) : '8';
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${version}${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
