import type { ContactRequest } from '@pagecast/contracts';
import { messages } from '../domain';
import type { AccountDeps } from './deps';

/** A visitor's or member's message to the operators (userId null for a visitor). */
export async function sendContactMessage(deps: AccountDeps, input: ContactRequest, userId: string | null) {
  await deps.data.contactMessages.create({ ...input, userId });
  return { message: messages.contactReceived };
}
