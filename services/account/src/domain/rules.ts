// Account's numbers in one place: lifetimes, limits and the argon2 cost.

/** A session (and its cookie) lives 30 days from login; the JWT inside is renewed every 15 minutes. */
export const SESSION_LIFETIME_MS = 30 * 24 * 3600 * 1000;
export const VERIFICATION_TOKEN_TTL_MS = 24 * 3600 * 1000;
export const RESET_TOKEN_TTL_MS = 3600 * 1000;
/** The holder of an address someone registers again hears of it at most once in this time. */
export const REGISTRATION_NOTICE_INTERVAL_MS = 3600 * 1000;
/** Random bytes in a verification or reset token (the mail carries them base64url; the database their sha256). */
export const TOKEN_BYTES = 32;

/**
 * argon2id with OWASP's minimum configuration (Password Storage Cheat Sheet: m=19 MiB, t=2, p=1). Memory-hard
 * enough to make GPU guessing costly, and about 20-30 ms of one core per hash here, so a login stays fast and
 * a burst of logins cannot exhaust the machine's memory (19 MiB per hash running, one per core: hash-workers.ts).
 */
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Failed logins, counted in a sliding window (data/rate-limits.ts; the policy is login-throttle.ts):
 * - per account, over every browser the account does not know: at most LOGIN_FAILURES_PER_ACCOUNT, then 429 for
 *   everyone but its known browsers (the bound on an attacker with many addresses);
 * - per client address over every account (credential stuffing from one address), for browsers the account does
 *   not know;
 * - per (account, address), and per known browser: LOGIN_FREE_FAILURES at once, then each further attempt waits
 *   LOGIN_DELAY_FIRST_MS after the previous failure, doubling with each failure (at most the window).
 */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_FAILURES_PER_ACCOUNT = 5;
export const LOGIN_FAILURES_PER_ADDRESS = 20;
export const LOGIN_FREE_FAILURES = 3;
export const LOGIN_DELAY_FIRST_MS = 15 * 1000;

/**
 * A browser that signed in to an account (or completed its password reset) is known to it for this long: a signed
 * cookie (known-browser.ts) that lets it past the account's limit. Browsers cap a cookie's life at 400 days.
 */
export const KNOWN_BROWSER_MAX_AGE_S = 365 * 24 * 3600;
/** Accounts one browser is known to at most (one cookie; the oldest entry goes first). */
export const KNOWN_BROWSER_ACCOUNTS = 5;

/** Expired sessions and old rate-limit windows are removed this often (FerretDB has no TTL indexes). */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/**
 * The screens service's copy of the workspaces' settings (NATS key-value) is repaired from the database: a workspace
 * whose copy could not be written after a change is retried this often, and every workspace is checked at start and
 * then this often (a replica that stopped between a change and its copy).
 */
export const SETTINGS_REPAIR_INTERVAL_MS = 2000;
export const SETTINGS_RECONCILE_INTERVAL_MS = 5 * 60 * 1000;
