import type { ScreenHealthState } from '@pagecast/contracts';
import { Badge, type BadgeVariant } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';

const VARIANT: Record<ScreenHealthState, BadgeVariant> = {
  ok: 'success',
  closed: 'outline',
  offline: 'secondary',
  broken: 'destructive',
  frozen: 'warning',
  wrong: 'warning',
};

/** A screen's health state as a badge (its reason is said beside it, see health-summary.tsx). */
export function HealthBadge({ state }: { state: ScreenHealthState }) {
  const { t } = useTranslation();
  return (
    <Badge variant={VARIANT[state]} data-testid="health-state" data-state={state}>
      {t(`screens.health.state.${state}`)}
    </Badge>
  );
}
