// /remotes.json → the list registerRemotes takes. Kept apart from the runtime so it is easy to test.

export const remoteNames = ['mf_files', 'mf_marketplace', 'mf_player'] as const;
export type RemoteName = (typeof remoteNames)[number];

export interface RemoteEntry {
  name: string;
  /** absolute URL of the remote's mf-manifest.json */
  entry: string;
}

/**
 * Validates /remotes.json ({ "mf_files": "/remotes/files/mf-manifest.json", ... }) and resolves relative entries
 * against the page's origin. Entries that are not a federation name with a string URL are skipped.
 */
export function toRemoteEntries(json: unknown, baseUrl: string): RemoteEntry[] {
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new Error('/remotes.json must be an object');
  const entries: RemoteEntry[] = [];
  for (const [name, value] of Object.entries(json)) {
    if (!/^[a-z][a-z0-9_]*$/i.test(name) || typeof value !== 'string' || !value.trim()) continue;
    let url: URL;
    try {
      url = new URL(value.trim(), baseUrl);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    entries.push({ name, entry: url.href });
  }
  return entries;
}
