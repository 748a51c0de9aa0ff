// The two reads a signage screen starts with (GET /api/files/:id?signage_mode=true and its pages), by path: the
// player remote reads them under the query key [path], and the shell's entry starts them before the player has
// loaded (shell/src/app/early-requests.ts), handing each to the query cache under that same key. Zod-free: the
// shell's entry imports it.

export const signageFilePath = (fileId: string) => `/api/files/${encodeURIComponent(fileId)}?signage_mode=true`;
export const signagePagesPath = (fileId: string) => `/api/files/${encodeURIComponent(fileId)}/pages?signage_mode=true`;
