import type { ConfirmPaymentRequest, PointsPurchaseResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/points/confirm-payment: billing confirms the intent with the card's payment method, then credits once. */
export async function confirmPayment(body: ConfirmPaymentRequest): Promise<PointsPurchaseResponse> {
  const res = await apiRequest('POST', '/api/points/confirm-payment', body);
  return (await res.json()) as PointsPurchaseResponse;
}
