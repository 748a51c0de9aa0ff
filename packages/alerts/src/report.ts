import { parseCapAlert } from './cap.ts';
import { AlertParseError } from './errors.ts';
import { parseJmaReport } from './jma.ts';
import type { AlertReport } from './types.ts';

/**
 * A report from a feed whose kind is not known in advance (the stream carries JMA reports and CAP alerts alike): the
 * document element decides, read from the text so that nothing is parsed twice.
 */
export function parseReport(xml: string): AlertReport {
  const root = /<(?:[A-Za-z_][\w.-]*:)?(Report|alert)[\s>]/.exec(xml.slice(0, 4096))?.[1];
  if (root === 'Report') return parseJmaReport(xml);
  if (root === 'alert') return parseCapAlert(xml);
  throw new AlertParseError('ALERT_NOT_SUPPORTED', 'neither a JMA Report nor a CAP alert');
}
