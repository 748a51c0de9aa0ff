// Account's numbers in one place: lifetimes, limits and the argon2 cost.

/** A session (and its cookie) lives 30 days from login; the JWT inside is renewed every 15 minutes. */
export const SESSION_LIFETIME_MS = 30 * 24 * 3600 * 1000;
export const VERIFICATION_TOKEN_TTL_MS = 24 * 3600 * 1000;
export const RESET_TOKEN_TTL_MS = 3600 * 1000;
/** Random bytes in a verification or reset token (the mail carries them base64url; the database their sha256). */
export const TOKEN_BYTES = 32;

/**
 * argon2id with OWASP's minimum configuration (Password Storage Cheat Sheet: m=19 MiB, t=2, p=1). Memory-hard
 * enough to make GPU guessing costly, and about 20-30 ms of one core per hash here, so a login stays fast and
 * a burst of logins cannot exhaust the machine's memory (19 MiB per hash running, one per core: hash-workers.ts).
 */
export const ARGON2_PARAMS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/** Failed logins counted in fixed windows, in the database so every replica sees the same count. */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_FAILURES_PER_ACCOUNT = 5;
export const LOGIN_FAILURES_PER_ADDRESS = 20;

/** Expired sessions and old rate-limit windows are removed this often (FerretDB has no TTL indexes). */
export const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
