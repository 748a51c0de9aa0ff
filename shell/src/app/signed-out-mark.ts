import { SESSION_HINT_META } from '@pagecast/contracts';

/**
 * Whether the page carries the gateway's signed-out mark (`<meta name="pc-session" content="none">`): it came
 * without a session cookie, so nobody is signed in. No shared module here: the entry reads it before its boundary.
 */
export function isMarkedSignedOut(doc: Document = document): boolean {
  return doc.querySelector(`meta[name="${SESSION_HINT_META}"]`)?.getAttribute('content') === 'none';
}
