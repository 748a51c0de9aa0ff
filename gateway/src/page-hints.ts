// The <link rel="preload"> hints a shell page carries in its head (static.ts): the remotes' list, the visitor's
// catalogue, and a player page's remote.
import { LEAN_MANIFEST, MANIFEST, remoteApps } from './remotes';

interface ManifestAssets {
  js?: { sync?: string[] };
  css?: { sync?: string[] };
}
export interface RemoteManifest {
  metaData?: { remoteEntry?: { name?: string; path?: string } };
  exposes?: Array<{ name?: string; assets?: ManifestAssets }>;
}

const PLAYER_SHORT = remoteApps.find((r) => r.name === 'mf_player')?.short ?? 'player';

/**
 * The file name of `manifestUrl` in the player's dist/ when it is one of the player's manifests this gateway serves
 * from its build (the self-contained one or the lean one), else undefined.
 */
export function localPlayerManifest(manifestUrl: string): string | undefined {
  return [MANIFEST, LEAN_MANIFEST].find((name) => manifestUrl === `/remotes/${PLAYER_SHORT}/${name}`);
}

/**
 * What a player page (/signage/:id, /screen) needs before its first frame besides the shell, as <link rel="preload">
 * in its head: the player remote's manifest and, when this gateway serves that remote from `remotesDir`, the remote's
 * entry and the chunks of its './routes'. The shell would find each only after the one before it had arrived and run
 * (remotes.json, then the manifest, then the entry): on a slow link those were three round trips before the player
 * could even ask for the file. A remote served from elsewhere gets its manifest preloaded only.
 */
export function playerHints(manifestUrl: string, builtHere: RemoteManifest | undefined): string {
  // the federation runtime reads the manifest with fetch(url, {}): a CORS request, as crossorigin="anonymous" says
  const links = [`<link rel="preload" href="${escapeAttr(manifestUrl)}" as="fetch" crossorigin="anonymous">`];
  const local = localPlayerManifest(manifestUrl) ? builtHere : undefined;
  if (local) {
    const base = manifestUrl.slice(0, manifestUrl.lastIndexOf('/') + 1);
    const entry = local.metaData?.remoteEntry;
    const routes = local.exposes?.find((e) => e.name === 'routes')?.assets;
    const scripts = [...(entry?.name ? [`${entry.path ?? ''}${entry.name}`] : []), ...(routes?.js?.sync ?? [])];
    // low priority, as the shell's own preloads (packages/federation): the page's splash does not wait for them
    for (const file of scripts) {
      links.push(`<link rel="preload" href="${escapeAttr(base + file)}" as="script" fetchpriority="low">`);
    }
    for (const file of routes?.css?.sync ?? []) {
      links.push(`<link rel="preload" href="${escapeAttr(base + file)}" as="style">`);
    }
  }
  return links.join('');
}

/**
 * The remotes' list, which the shell's entry reads at once (shell/src/federation/remotes.ts), preloaded: the browser
 * asks for it while it parses the page, beside the framework's scripts, instead of once the entry has arrived and run.
 * It must be the entry's own fetch() again (same-origin credentials: crossorigin="anonymous"), or it is read twice.
 * The entry's other first reads (the user, a player's file and pages) are not preloaded: measured, they took
 * connections from the scripts (six per origin over HTTP/1.1) and the first screen came no sooner.
 */
export const REMOTES_HINT = '<link rel="preload" href="/remotes.json" as="fetch" crossorigin="anonymous">';

/** language → the script files of its catalogue, as the shell's build lists them (dist/catalogues.json) */
export type CatalogueFiles = Record<string, string[]>;

/**
 * The catalogue the page will start in, preloaded: the shell's entry asks for it only once it has run (i18n's
 * preloadCatalogue), and no first screen is drawn without it. The language is the visitor's as the gateway reads it
 * (visitorLanguage), which is the one the shell picks unless the browser stored another without the cookie. Japanese
 * is bundled, so it lists none.
 */
export function catalogueHints(files: CatalogueFiles | undefined, language: string): string {
  return (files?.[language] ?? [])
    .filter((file) => file.endsWith('.js'))
    .map((file) => `<link rel="preload" href="/${escapeAttr(file)}" as="script" fetchpriority="low">`)
    .join('');
}

const escapeAttr = (value: string) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
