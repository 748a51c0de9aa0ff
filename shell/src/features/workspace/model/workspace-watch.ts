// An open page notices by itself that its person was removed from the workspace it acts in, or that their role
// there changed. While the page acts in someone else's workspace it keeps one live stream naming it (GET
// /api/events?workspace=<id>); the gateway ends that stream at once when the membership is deleted or its role
// changes (gateway/src/memberships.ts). When the stream ends or errors, the person's workspaces are read once (GET
// /api/workspaces, the account's list: the truth); gone from it, the page returns to the person's own workspace; still
// there, the list (with the new role) is handed over and the stream opened again. A network down is retried with
// growing, jittered delays, and a stream that keeps ending as soon as it opens is opened again only after such a
// delay too: never a tight loop.
import type { WorkspaceList } from '@pagecast/contracts';
import { apiFetch } from '@pagecast/ui';

/** The part of EventSource the watch uses (a test passes its own). */
export interface StreamLike {
  onerror: ((ev: Event) => unknown) | null;
  close(): void;
}

export interface WorkspaceWatchHandlers {
  /** The person is no longer a member of the workspace (absent from their list). */
  onRemoved(workspaceId: string): void;
  /** The person's workspaces as the account now lists them (a role may have changed). */
  onList(list: WorkspaceList): void;
  /** The session itself has ended (401): nothing more to watch. */
  onSignedOut?(): void;
}

export interface WorkspaceWatchOptions {
  openStream?: (url: string) => StreamLike;
  /**
   * GET /api/workspaces naming the workspace the page acts in, as every call does (one naming none would move the
   * page's media cookie to the person's own): NOT_A_MEMBER once the gateway has heard of the removal, else the list.
   */
  readList?: (workspaceId: string) => Promise<Response>;
  random?: () => number;
  now?: () => number;
}

/** A stream that ends sooner than this after opening counts as a quick end: from the second in a row, opening waits. */
export const QUICK_END_MS = 10_000;
export const BACKOFF_FIRST_MS = 1_000;
export const BACKOFF_MAX_MS = 30_000;

/** The wait before the n-th retry (n ≥ 1): doubling from 1 s up to 30 s, then a random half of it taken off. */
export function backoffMs(n: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** Math.max(0, n - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** The live stream naming `workspaceId` (the parameter: an EventSource cannot set headers). */
export function workspaceStreamUrl(workspaceId: string): string {
  return `/api/events?workspace=${encodeURIComponent(workspaceId)}`;
}

const defaultStream = (url: string): StreamLike => new EventSource(url, { withCredentials: true });
const defaultReadList = () => apiFetch('/api/workspaces', { headers: { accept: 'application/json' } });

/** Whether an answer is the refusal NOT_A_MEMBER. */
async function isNotAMember(res: Response): Promise<boolean> {
  if (res.status !== 403) return false;
  const body = (await res
    .clone()
    .json()
    .catch(() => undefined)) as { code?: unknown } | undefined;
  return body?.code === 'NOT_A_MEMBER';
}

/** Watches the person's membership of `workspaceId` until the returned function is called. */
export function watchWorkspace(
  workspaceId: string,
  handlers: WorkspaceWatchHandlers,
  options: WorkspaceWatchOptions = {},
): () => void {
  const openStream = options.openStream ?? defaultStream;
  const readList = options.readList ?? defaultReadList;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  let stopped = false;
  let stream: StreamLike | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** streams in a row that ended soon after opening */
  let quickEnds = 0;
  /** list reads in a row that failed (network down, 5xx) */
  let failures = 0;

  const later = (ms: number, work: () => void) => {
    timer = setTimeout(() => {
      timer = undefined;
      if (!stopped) work();
    }, ms);
  };

  const open = () => {
    const openedAt = now();
    const source = openStream(workspaceStreamUrl(workspaceId));
    stream = source;
    source.onerror = () => {
      // the browser would reconnect by itself; the page asks first whether it still belongs there
      source.onerror = null;
      source.close();
      if (stream !== source || stopped) return;
      stream = null;
      quickEnds = now() - openedAt < QUICK_END_MS ? quickEnds + 1 : 0;
      void check();
    };
  };

  const check = async () => {
    let res: Response | undefined;
    try {
      res = await readList(workspaceId);
    } catch {
      res = undefined;
    }
    if (stopped) return;
    if (res?.status === 401) {
      handlers.onSignedOut?.();
      return;
    }
    const removed = () => {
      stopped = true;
      handlers.onRemoved(workspaceId);
    };
    if (res && (await isNotAMember(res))) {
      if (!stopped) removed();
      return;
    }
    let list: WorkspaceList | undefined;
    if (res?.ok) list = (await res.json().catch(() => undefined)) as WorkspaceList | undefined;
    if (stopped) return;
    if (!list || !Array.isArray(list.workspaces)) {
      failures += 1;
      later(backoffMs(failures, random), () => void check());
      return;
    }
    failures = 0;
    if (!list.workspaces.some((w) => w.id === workspaceId)) {
      removed();
      return;
    }
    handlers.onList(list);
    // one quick end is opened again at once (a role changed just after the page opened); more in a row wait
    if (quickEnds <= 1) open();
    else later(backoffMs(quickEnds - 1, random), open);
  };

  open();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    if (stream) {
      stream.onerror = null;
      stream.close();
      stream = null;
    }
  };
}

/** Whether the page can keep a live stream (not in jsdom without one, nor before hydration on the server). */
export const canWatch = () => typeof EventSource !== 'undefined';
