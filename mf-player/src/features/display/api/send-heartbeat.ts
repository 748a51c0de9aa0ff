import type { HeartbeatRequest } from '@pagecast/contracts';
import { apiRequest } from '@pagecast/ui';

/** POST /api/screens/device/heartbeat: on, what it shows, version and size. */
export async function sendHeartbeat(body: HeartbeatRequest): Promise<void> {
  await apiRequest('POST', '/api/screens/device/heartbeat', body);
}
