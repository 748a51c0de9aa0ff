// Reads a page's first screen makes anyway, started by the entry before its async boundary: on a slow
// link the framework's chunks take most of a second to arrive and run, and these reads need none of it. They are:
// - the session's user (GET /api/auth/user), unless the page says nobody is signed in (the gateway's mark);
// - on /signage/:id, the file and its pages (the player's first reads), and then the first page's image.
// bootstrap.tsx hands each to the query cache under the key its reader uses ([path]), so the reader finds it there,
// under way or answered, instead of asking again. Nothing here imports a shared module: the entry runs before the
// federation runtime has chosen them.
import { signageFileId, signageFilePath, signagePagesPath } from '@pagecast/contracts';
import { isMarkedSignedOut } from './signed-out-mark';

export interface EarlyRequest {
  path: string;
  /** never consumed itself: each reader takes a clone */
  response: Promise<Response>;
}

const started: EarlyRequest[] = [];

function get(path: string): Promise<Response> {
  const response = fetch(path, { credentials: 'include' });
  response.catch(() => {}); // a reader reports the failure (or asks again)
  started.push({ path, response });
  return response;
}

/** Starts the early reads for the page at `pathname` (once, from the entry). */
export function startEarlyRequests(pathname: string = window.location.pathname, doc: Document = document): void {
  if (isMarkedSignedOut(doc)) return; // the visitor's screens read nothing before their first frame
  get('/api/auth/user');
  const fileId = signageFileId(pathname);
  if (fileId === undefined) return;
  get(signageFilePath(fileId));
  // the first page's image is the largest thing on the screen: ask for it as soon as its address is known, instead
  // of once the player has loaded and read the pages itself (the browser's cache then serves the player's request)
  void get(signagePagesPath(fileId))
    .then(async (res) => {
      if (!res.ok) return;
      const pages = (await res.clone().json()) as Array<{ imagePath?: unknown }>;
      const first = pages[0]?.imagePath;
      if (typeof first !== 'string' || !first.startsWith('/')) return;
      const link = doc.createElement('link');
      link.rel = 'preload';
      link.setAttribute('as', 'image');
      link.href = first;
      link.setAttribute('fetchpriority', 'high');
      doc.head.append(link);
    })
    .catch(() => {});
}

/** The reads started so far. */
export function earlyRequests(): readonly EarlyRequest[] {
  return started;
}
