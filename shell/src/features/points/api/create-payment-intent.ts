import type { CreatePaymentIntentRequest, CreatePaymentIntentResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/create-payment-intent: a PaymentIntent for one package (yen = points). */
export async function createPaymentIntent(body: CreatePaymentIntentRequest): Promise<CreatePaymentIntentResponse> {
  const res = await apiRequest('POST', '/api/create-payment-intent', body);
  return (await res.json()) as CreatePaymentIntentResponse;
}
