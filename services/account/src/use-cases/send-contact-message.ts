import type { ContactRequest } from '@pagecast/contracts';
import type { AccountDeps } from './deps';

/** A visitor's or member's message to the operators (userId null for a visitor). */
export async function sendContactMessage(deps: AccountDeps, input: ContactRequest, userId: string | null) {
  await deps.data.contactMessages.create({ ...input, userId });
  return { ok: true as const };
}
