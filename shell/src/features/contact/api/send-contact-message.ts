import type { ContactRequest, OkResponse } from '@pagecast/contracts';
import { apiRequest, type MutationCallbacks } from '@pagecast/ui';
import { useMutation } from '@tanstack/react-query';

/** POST /api/contact: open to visitors and members. */
export async function sendContactMessage(body: ContactRequest): Promise<OkResponse> {
  const res = await apiRequest('POST', '/api/contact', body);
  return (await res.json()) as OkResponse;
}

export function useSendContactMessage(callbacks: MutationCallbacks<OkResponse, ContactRequest> = {}) {
  return useMutation({
    mutationFn: sendContactMessage,
    onSuccess: (data, variables) => callbacks.onSuccess?.(data, variables),
    onError: (error, variables) => callbacks.onError?.(error, variables),
  });
}
