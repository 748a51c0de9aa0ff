// The workspace the page acts in (gateway README, "The workspace a call acts in"). Its id is its owner's user id;
// none chosen = the person's own workspace, and calls then name none. This module is part of the federation
// singleton @pagecast/ui, so the shell and every remote read one value: each call made through apiFetch (and so
// apiRequest and the default query reader) carries the header, and each live stream opened through withWorkspace
// the `?workspace=` parameter (an EventSource cannot send headers).
import { useSyncExternalStore } from 'react';

/**
 * The contracts' WORKSPACE_HEADER, written here (a test keeps the two equal): this module is on every page, and the
 * contracts' values bring zod, which a page without a form must not load (the landing page's test checks its scripts).
 */
export const WORKSPACE_HEADER = 'x-pagecast-workspace';

/** The page address's search parameter that names the workspace, so that a reload or a shared link keeps it. */
export const WORKSPACE_PARAM = 'w';

let current: string | undefined;
let readFromAddress = false;
const listeners = new Set<() => void>();
const refusalListeners = new Set<(workspaceId: string) => void>();

function fromAddress(): string | undefined {
  if (typeof window === 'undefined') return undefined;
  try {
    return new URL(window.location.href).searchParams.get(WORKSPACE_PARAM) || undefined;
  } catch {
    return undefined;
  }
}

/** The workspace chosen (undefined: the person's own). The first read takes it from the page's address. */
export function currentWorkspace(): string | undefined {
  if (!readFromAddress) {
    readFromAddress = true;
    current = fromAddress();
  }
  return current;
}

/** Chooses the workspace calls act in (undefined or '' : the person's own); listeners hear a change. */
export function setCurrentWorkspace(id: string | undefined): void {
  readFromAddress = true;
  const next = id || undefined;
  if (next === current) return;
  current = next;
  for (const listener of [...listeners]) listener();
}

export function subscribeWorkspace(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The workspace chosen, re-rendering on a change. */
export function useCurrentWorkspace(): string | undefined {
  return useSyncExternalStore(subscribeWorkspace, currentWorkspace, () => undefined);
}

/** The headers that name the chosen workspace (none for the person's own). */
export function workspaceHeaders(): Record<string, string> {
  const id = currentWorkspace();
  return id ? { [WORKSPACE_HEADER]: id } : {};
}

/** A live stream's URL (GET /api/events) naming the chosen workspace. */
export function withWorkspace(url: string): string {
  const id = currentWorkspace();
  if (!id) return url;
  return `${url}${url.includes('?') ? '&' : '?'}workspace=${encodeURIComponent(id)}`;
}

/**
 * A same-site address naming the chosen workspace (`?w=`), for what opens in a new tab (the signage player): a new
 * tab starts from its own address, so without it the page would act in the person's own workspace and a team's
 * file would not be found there.
 */
export function inWorkspace(path: string): string {
  const id = currentWorkspace();
  if (!id) return path;
  const [beforeHash, hash] = path.split('#', 2) as [string, string | undefined];
  const sep = beforeHash.includes('?') ? '&' : '?';
  return `${beforeHash}${sep}${WORKSPACE_PARAM}=${encodeURIComponent(id)}${hash === undefined ? '' : `#${hash}`}`;
}

/**
 * Hears a call refused because the person is not (or no longer) a member of the workspace it named (403
 * NOT_A_MEMBER): the shell then returns to the person's own workspace and says why.
 */
export function onWorkspaceRefused(listener: (workspaceId: string) => void): () => void {
  refusalListeners.add(listener);
  return () => refusalListeners.delete(listener);
}

async function noteRefusal(res: Response, workspaceId: string): Promise<void> {
  if (res.status !== 403) return;
  const body = await res
    .clone()
    .json()
    .catch(() => undefined);
  if ((body as { code?: unknown } | undefined)?.code !== 'NOT_A_MEMBER') return;
  for (const listener of [...refusalListeners]) listener(workspaceId);
}

/** fetch with the session's cookie and the chosen workspace's header; a NOT_A_MEMBER answer is reported. */
export async function apiFetch(input: string, init: RequestInit = {}): Promise<Response> {
  const id = currentWorkspace();
  const headers = new Headers(init.headers);
  if (id && !headers.has(WORKSPACE_HEADER)) headers.set(WORKSPACE_HEADER, id);
  const res = await fetch(input, { credentials: 'include', ...init, headers });
  if (id) await noteRefusal(res, id);
  return res;
}
