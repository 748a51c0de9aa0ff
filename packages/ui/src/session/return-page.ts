// The page a visitor was sent away from, restored once after login (spec point 2).

export const RETURN_PAGE_KEY = 'pagecast.returnPage';

/** Pages that are never remembered: returning there after login makes no sense. */
export const NEVER_REMEMBERED = ['/login', '/register', '/request-password-reset', '/reset-password', '/verify-email'];

function pathnameOf(path: string): string {
  const end = path.search(/[?#]/);
  const pathname = end === -1 ? path : path.slice(0, end);
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

export function isRememberablePath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//')) return false; // same-origin paths only
  return !NEVER_REMEMBERED.includes(pathnameOf(path));
}

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined; // storage disabled
  }
}

/** Remembers a path (with its query) unless it is one of the never-remembered pages. */
export function rememberReturnPage(path: string): boolean {
  if (!isRememberablePath(path)) return false;
  storage()?.setItem(RETURN_PAGE_KEY, path);
  return true;
}

/** The remembered page, forgotten as it is read: used once. */
export function takeReturnPage(): string | null {
  const store = storage();
  const path = store?.getItem(RETURN_PAGE_KEY) ?? null;
  store?.removeItem(RETURN_PAGE_KEY);
  return path && isRememberablePath(path) ? path : null;
}
