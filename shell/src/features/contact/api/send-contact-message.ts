import type { ContactRequest, MessageResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/contact: open to visitors and members. */
export async function sendContactMessage(body: ContactRequest): Promise<MessageResponse> {
  const res = await apiRequest('POST', '/api/contact', body);
  return (await res.json()) as MessageResponse;
}
