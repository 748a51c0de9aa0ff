import { z } from 'zod';

// Federation names → the short folder under /remotes/ and the workspace that builds it (docs/platform.md).
export const remoteApps = [
  { name: 'mf_files', short: 'files', workspace: 'mf-files' },
  { name: 'mf_marketplace', short: 'marketplace', workspace: 'mf-marketplace' },
  { name: 'mf_player', short: 'player', workspace: 'mf-player' },
] as const;

export type RemoteName = (typeof remoteApps)[number]['name'];
export type RemotesMap = Record<RemoteName, string>;

const RemotesOverride = z
  .object({ mf_files: z.string().min(1), mf_marketplace: z.string().min(1), mf_player: z.string().min(1) })
  .partial()
  .strict();

/** A remote build's two manifests (packages/federation: remoteConfig, and LEAN_MANIFEST of remoteLeanConfig). */
export const MANIFEST = 'mf-manifest.json';
export const LEAN_MANIFEST = 'mf-manifest.lean.json';

/**
 * The remotes this gateway serves, by their lean manifests: containers that use the federation runtime our shell
 * provides instead of carrying a second copy. Every remote's folder also holds the self-contained mf-manifest.json,
 * for any other host; REMOTES names whichever a deployment wants.
 */
export const defaultRemotes = Object.fromEntries(
  remoteApps.map((r) => [r.name, `/remotes/${r.short}/${LEAN_MANIFEST}`]),
) as RemotesMap;

/** The REMOTES env value (JSON) merged over the defaults; a bad value stops the start with a clear message. */
export function resolveRemotes(raw: string | undefined): RemotesMap {
  if (!raw?.trim()) return { ...defaultRemotes };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error(`REMOTES must be JSON like {"mf_files":"http://localhost:3001/mf-manifest.json"}; got ${raw}`);
  }
  const result = RemotesOverride.safeParse(parsed);
  if (!result.success) throw new Error(`REMOTES has unknown or empty entries: ${result.error.message}`);
  return { ...defaultRemotes, ...result.data };
}

/** Origins other than our own that the browser must be allowed to load remote code from (for the CSP). */
export function foreignOrigins(remotes: RemotesMap): string[] {
  const origins = new Set<string>();
  for (const value of Object.values(remotes)) {
    if (!/^https?:\/\//i.test(value)) continue; // relative → same origin
    origins.add(new URL(value).origin);
  }
  return [...origins];
}
