import type { DeviceScreen } from '@pagecast/contracts';
import { fetchJsonWithEtag } from '../../../lib/conditional-fetch';

export const deviceScreenPath = '/api/screens/device/me';

/** GET /api/screens/device/me with the device cookie: this display's screen and what it plays. */
export const getDeviceScreen = (signal?: AbortSignal) => fetchJsonWithEtag<DeviceScreen>(deviceScreenPath, signal);
