import type { ScreenHealthState } from '@pagecast/contracts';
import { Badge, type BadgeVariant } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import type { HealthNote } from '../model/health-text';

const VARIANT: Record<ScreenHealthState, BadgeVariant> = {
  ok: 'success',
  closed: 'outline',
  offline: 'secondary',
  broken: 'destructive',
  frozen: 'warning',
  wrong: 'warning',
};
const NOTE_VARIANT: Record<NonNullable<HealthNote>, BadgeVariant> = {
  takeover: 'destructive',
  unassigned: 'secondary',
};

/**
 * A screen's health state as a badge (its reason is said beside it, see health-summary.tsx); an ok screen under a
 * takeover or with nothing assigned says that rather than "ok" (`note`, from healthNote).
 */
export function HealthBadge({ state, note = null }: { state: ScreenHealthState; note?: HealthNote }) {
  const { t } = useTranslation();
  return (
    <Badge
      variant={note ? NOTE_VARIANT[note] : VARIANT[state]}
      data-testid="health-state"
      data-state={state}
      data-note={note ?? undefined}
    >
      {note ? t(`screens.health.note.${note}`) : t(`screens.health.state.${state}`)}
    </Badge>
  );
}
