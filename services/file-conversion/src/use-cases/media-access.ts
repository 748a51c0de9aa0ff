import type { MediaAccessAnswer } from '@pagecast/contracts';
import type { ServiceContext } from '../context';
import { hashFromMediaKey, REFUSAL_KEEP_MS } from '../domain';
import { imageAccess } from './image-access';
import type { Caller } from './reader';

/**
 * The gateway's question before it serves a page image from its own memory: the caller's access and how long the
 * gateway may keep the answer (the owner's 60 s, a licence's at most 3 s and never past its end, a refusal 2 s).
 * A key that names no image is a refusal like any other.
 */
export async function mediaAccess(ctx: ServiceContext, caller: Caller, key: string): Promise<MediaAccessAnswer> {
  const hash = hashFromMediaKey(key);
  if (!hash) return { access: null, maxAgeMs: REFUSAL_KEEP_MS };
  const decision = await imageAccess(ctx, caller, hash);
  const access = decision.access === 'owner' || decision.access === 'licence' ? decision.access : null;
  return { access, maxAgeMs: access ? decision.keepMs : REFUSAL_KEEP_MS };
}
