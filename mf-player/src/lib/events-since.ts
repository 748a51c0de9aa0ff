// `since` for GET /api/events (docs/platform.md, "Live streams"), from @pagecast/ui. A host whose @pagecast/ui
// predates it provides no withReadSince: the stream then goes without, and the gateway resyncs as it used to.
import { withReadSince } from '@pagecast/ui';

export const liveUrl = (url: string): string => (typeof withReadSince === 'function' ? withReadSince(url) : url);
