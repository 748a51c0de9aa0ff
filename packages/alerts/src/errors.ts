/** Stable codes so the caller (the screens service's consumer, the replay CLI) can log and count without sentences. */
export type AlertParseErrorCode =
  | 'ALERT_XML_INVALID'
  | 'ALERT_XML_TOO_LARGE'
  | 'ALERT_XML_DTD_REFUSED'
  | 'ALERT_NOT_SUPPORTED'
  | 'ALERT_REPORT_INVALID';

export class AlertParseError extends Error {
  override readonly name = 'AlertParseError';
  // a declared field, not a constructor parameter property: the replay CLI runs this file with Node's type stripping,
  // which does not rewrite those
  readonly code: AlertParseErrorCode;
  constructor(code: AlertParseErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
