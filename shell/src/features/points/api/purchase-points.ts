import type { PointsPurchaseRequest, PointsPurchaseResponse } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/points/purchase: records the succeeded intent (idempotent per intent; billing checks it with the provider). */
export async function purchasePoints(body: PointsPurchaseRequest): Promise<PointsPurchaseResponse> {
  const res = await apiRequest('POST', '/api/points/purchase', body);
  return (await res.json()) as PointsPurchaseResponse;
}
