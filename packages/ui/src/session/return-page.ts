// The page a visitor was sent away from, restored once after login (spec point 2).

export const RETURN_PAGE_KEY = 'pagecast.returnPage';

/**
 * A return page carried past a registration: the e-mail's verification link opens another tab, where this tab's
 * sessionStorage is not, so the page is also kept in localStorage for one address's next sign-in, for a while.
 */
export const CARRIED_RETURN_PAGE_KEY = 'pagecast.returnPageForSignIn';

/** The longest a carried page waits for its sign-in (an invitation's validity). */
export const CARRIED_RETURN_PAGE_MAX_MS = 7 * 24 * 60 * 60 * 1000;

/** Pages that are never remembered: returning there after login makes no sense. */
export const NEVER_REMEMBERED = ['/login', '/register', '/request-password-reset', '/reset-password', '/verify-email'];

function pathnameOf(path: string): string {
  const end = path.search(/[?#]/);
  const pathname = end === -1 ? path : path.slice(0, end);
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

const BASE = 'http://pagecast.invalid';

/** A path of this site only: `//host`, `/\host` (which browsers read as `//host`) and absolute URLs are not. */
function isSameSitePath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || /[\\\s]/.test(path)) return false;
  try {
    return new URL(path, BASE).origin === BASE;
  } catch {
    return false;
  }
}

export function isRememberablePath(path: string): boolean {
  if (!isSameSitePath(path)) return false;
  return !NEVER_REMEMBERED.includes(pathnameOf(path));
}

function storage(kind: 'sessionStorage' | 'localStorage' = 'sessionStorage'): Storage | undefined {
  try {
    return globalThis[kind];
  } catch {
    return undefined; // storage disabled
  }
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** What a page carried for a sign-in holds. */
interface Carried {
  email: string;
  path: string;
  until: number;
}

function readCarried(): Carried | null {
  try {
    const value = JSON.parse(storage('localStorage')?.getItem(CARRIED_RETURN_PAGE_KEY) ?? 'null') as Partial<Carried>;
    if (typeof value?.email !== 'string' || typeof value.path !== 'string' || typeof value.until !== 'number') {
      return null;
    }
    return { email: value.email, path: value.path, until: value.until };
  } catch {
    return null;
  }
}

export interface RememberOptions {
  /**
   * Keeps the page also for the next sign-in of this address in any tab of this browser (a registration's
   * verification opens another), until `until` (at most CARRIED_RETURN_PAGE_MAX_MS from now).
   */
  carryFor?: { email: string; until?: Date | string };
}

/** Remembers a path (with its query) unless it is one of the never-remembered pages. */
export function rememberReturnPage(path: string, options: RememberOptions = {}): boolean {
  if (!isRememberablePath(path)) return false;
  storage()?.setItem(RETURN_PAGE_KEY, path);
  const carry = options.carryFor;
  if (carry?.email.trim()) {
    const now = Date.now();
    const asked = carry.until === undefined ? Number.NaN : new Date(carry.until).getTime();
    const until = Math.min(
      Number.isNaN(asked) ? now + CARRIED_RETURN_PAGE_MAX_MS : asked,
      now + CARRIED_RETURN_PAGE_MAX_MS,
    );
    const carried: Carried = { email: carry.email.trim().toLowerCase(), path, until };
    try {
      storage('localStorage')?.setItem(CARRIED_RETURN_PAGE_KEY, JSON.stringify(carried));
    } catch {
      // storage full or refused: this tab's page still returns
    }
  }
  return true;
}

/**
 * The page carried for a sign-in as `email` (see RememberOptions.carryFor), forgotten as it is read; one for
 * another address stays for that address, an expired one is dropped.
 */
export function takeCarriedReturnPage(email: string): string | null {
  const carried = readCarried();
  const store = storage('localStorage');
  if (!carried) {
    store?.removeItem(CARRIED_RETURN_PAGE_KEY);
    return null;
  }
  if (carried.until < Date.now()) {
    store?.removeItem(CARRIED_RETURN_PAGE_KEY);
    return null;
  }
  if (!sameAddress(carried.email, email)) return null;
  store?.removeItem(CARRIED_RETURN_PAGE_KEY);
  return isRememberablePath(carried.path) ? carried.path : null;
}

/**
 * The remembered page, forgotten as it is read: used once. With the address just signed in, a page carried for it
 * from another tab counts when this tab has none (and is forgotten either way). A first sign-in (`firstSignIn`)
 * welcomes the newcomer, so only a page carried for them comes first there (the invitation they registered from);
 * this tab's page then waits for a later sign-in, as before.
 */
export function takeReturnPage(email?: string, options: { firstSignIn?: boolean } = {}): string | null {
  const store = storage();
  if (options.firstSignIn) {
    const carried = email === undefined ? null : takeCarriedReturnPage(email);
    if (carried && store?.getItem(RETURN_PAGE_KEY) === carried) store.removeItem(RETURN_PAGE_KEY);
    return carried;
  }
  const path = store?.getItem(RETURN_PAGE_KEY) ?? null;
  store?.removeItem(RETURN_PAGE_KEY);
  const carried = email === undefined ? null : takeCarriedReturnPage(email);
  if (path && isRememberablePath(path)) return path;
  return carried;
}

/** The navigation state a first sign-in gives the page it returns to instead of the welcome, which is then owed. */
export const WELCOME_OWED_STATE = { welcomeOwed: true } as const;

/** Whether a page was reached by a first sign-in that skipped the welcome (its navigation state). */
export function isWelcomeOwed(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { welcomeOwed?: unknown }).welcomeOwed === true;
}
