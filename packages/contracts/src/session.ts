// What a browser's first screen needs to know about the session, kept apart from the schemas in identity.ts: a
// module that defines zod schemas needs zod, and the landing page must not download zod to read one string.

export const SESSION_COOKIE = 'pc_session';
/**
 * `<meta name="pc-session" content="none">`: the gateway puts it in the shell's page when the request carried no
 * session cookie, so the shell knows at once that nobody is signed in (the cookie is HttpOnly: script cannot look).
 * Only absence is told: a cookie that is there may still be expired or revoked, and the shell asks the server.
 */
export const SESSION_HINT_META = 'pc-session';

/**
 * The language a browser last used (`ja`, `en`, `fr` or `it`), beside the copy in localStorage that the shell reads
 * first: the gateway reads this one to send the page prerendered in that language (gateway/src/static.ts).
 */
export const LANGUAGE_COOKIE = 'pc_lang';
