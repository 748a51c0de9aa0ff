/** What a member pasted into the check-your-mail page: the e-mail's whole link, part of it, or the token alone. */
export interface PastedVerification {
  token: string;
  /** the address the link names, when it names one */
  email: string | null;
}

/**
 * The verification e-mail carries a link `…/verify-email?token=…&email=…`; a member who opens the mail on another
 * device pastes that link, or only its token, here. Mail clients break long lines, so white space inside is dropped.
 */
export function readPastedVerification(text: string): PastedVerification | null {
  const compact = text.replace(/\s+/g, '');
  if (compact === '') return null;
  const query = compact.includes('?') ? compact.slice(compact.indexOf('?') + 1) : compact;
  if (/(^|&)token=/.test(query)) {
    const params = new URLSearchParams(query.split('#')[0]);
    const token = params.get('token')?.trim() ?? '';
    if (token === '') return null;
    const email = params.get('email')?.trim() || null;
    return { token, email };
  }
  return { token: compact, email: null };
}
