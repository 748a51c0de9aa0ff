// The pages the shell's build writes prerendered (shell/src/prerender), one per language under
// dist/prerendered/<language>/, and the gateway sends (gateway/src/static.ts): one list for the writer and the reader.

/** A visitor's page by path → its file name: the same for every visitor in a language (no session, no query). */
export const PRERENDERED_PAGES = { '/': 'index', '/login': 'login' } as const;
export type PrerenderedPath = keyof typeof PRERENDERED_PAGES;

/**
 * The file name of a signage page's loading frame (/signage/:fileId, for any file, member or not, with any query):
 * the player's black stage and header bar, which the shell draws again (the same frame) instead of hydrating it.
 */
export const SIGNAGE_FRAME = 'signage';
