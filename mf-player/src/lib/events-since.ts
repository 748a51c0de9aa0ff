// `since` for GET /api/events (docs/platform.md, "Live streams"), and the workspace the page acts in, from
// @pagecast/ui. A host whose @pagecast/ui predates them provides neither: the stream then goes without (the
// gateway resyncs as it used to; the person's own workspace).
import { withReadSince, withWorkspace, workspaceHeaders } from '@pagecast/ui';

const inWorkspace = (url: string): string => (typeof withWorkspace === 'function' ? withWorkspace(url) : url);

export const liveUrl = (url: string): string =>
  inWorkspace(typeof withReadSince === 'function' ? withReadSince(url) : url);

/** The headers naming the workspace the page acts in (none for the person's own, or from an older host). */
export const workspaceHeadersOf = (): Record<string, string> =>
  typeof workspaceHeaders === 'function' ? workspaceHeaders() : {};
