/** Stable codes so the caller (the screens service's consumer, the replay CLI) can log and count without sentences. */
export type AlertParseErrorCode =
  | 'ALERT_XML_INVALID'
  | 'ALERT_XML_TOO_LARGE'
  | 'ALERT_XML_DTD_REFUSED'
  | 'ALERT_NOT_SUPPORTED'
  | 'ALERT_REPORT_INVALID';

export class AlertParseError extends Error {
  override readonly name = 'AlertParseError';
  constructor(
    readonly code: AlertParseErrorCode,
    message: string,
  ) {
    super(message);
  }
}
