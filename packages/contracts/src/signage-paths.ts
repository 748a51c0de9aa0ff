// The player's pages and the two reads a signage screen starts with (GET /api/files/:id?signage_mode=true and its
// pages), by path: the player remote reads them under the query key [path], and the shell's entry starts them before
// the player has loaded (shell/src/app/early-requests.ts), handing each to the query cache under that same key; the
// gateway lists the player's files in the head of its pages. Zod-free: the shell's entry imports it.

/** The pages the player remote shows: /signage/:fileId and /screen. */
export const PLAYER_PAGE = /^\/(signage\/[^/]+|screen)\/?$/;

/** The file id of a /signage/:fileId path (decoded), or undefined for any other path or a malformed one. */
export function signageFileId(pathname: string): string | undefined {
  const encoded = /^\/signage\/([^/]+)\/?$/.exec(pathname)?.[1];
  if (!encoded) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined; // a malformed address: the player shows its not-found card
  }
}

export const signageFilePath = (fileId: string) => `/api/files/${encodeURIComponent(fileId)}?signage_mode=true`;
export const signagePagesPath = (fileId: string) => `/api/files/${encodeURIComponent(fileId)}/pages?signage_mode=true`;
