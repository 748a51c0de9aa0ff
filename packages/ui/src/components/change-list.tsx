// An object's difference (the audit log's AuditChange list: a path, the value before, the value after) as one line
// per change in the reader's words. The shell's audit log and the player's proposals show differences alike.
import type { AuditChange } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';

/** A changed value as text: strings as they are, anything else as JSON. */
export function changeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}

/**
 * One line per change: "path: from before to after" (a side that is missing says so). `name` words a value a page
 * can name (a playlist's id as its name); a value it leaves (undefined) shows as itself.
 */
export function ChangeList({
  changes,
  id,
  testId,
  name,
  label,
}: {
  changes: readonly AuditChange[];
  id?: string;
  testId?: string;
  name?: (path: readonly string[], value: unknown) => string | undefined;
  /** the reader's words for a field's path (default: its keys joined by dots, as the audit log shows them) */
  label?: (path: readonly string[]) => string;
}) {
  const { t } = useTranslation();
  // null is "none" as a missing side is (a cleared playlist, no opening hours), not the word null
  const shown = (path: readonly string[], value: unknown) =>
    value === null ? t('workspace.audit.absent') : (name?.(path, value) ?? changeValue(value));
  return (
    <ul className="pc-change-list" id={id} data-testid={testId}>
      {changes.map((change) => (
        <li key={change.path.join('\u0000')}>
          {t('workspace.audit.changeLine', {
            path: label ? label(change.path) : change.path.join('.'),
            before: 'before' in change ? shown(change.path, change.before) : t('workspace.audit.absent'),
            after: 'after' in change ? shown(change.path, change.after) : t('workspace.audit.absent'),
          })}
        </li>
      ))}
    </ul>
  );
}
