import { OPENING_SPANS_MAX, type OpeningSpan } from '@pagecast/contracts';
import { Button, FieldError } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
/** 0 = Sunday .. 6 = Saturday (as the day-part editor). */
import { TimeField, WeekdayChecks } from '../../../components/schedule/week-fields';
import '../../../components/layout/layout.css';
import './health.css';

/** A new span: weekdays 09:00–18:00. */
export const NEW_SPAN: OpeningSpan = { days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' };

/**
 * Opening hours: a list of spans (weekdays, opens, closes; closing before opening means the next day), added and
 * removed; none = the `noneLabel` case (always open, or the groups' hours for a screen). The server's refusals are
 * shown on their span (`errors` by 'openingHours.<i>') or on the whole list ('openingHours').
 */
export function OpeningHoursEditor({
  idPrefix,
  spans,
  onChange,
  noneLabel,
  errors,
}: {
  idPrefix: string;
  spans: OpeningSpan[];
  onChange: (spans: OpeningSpan[]) => void;
  noneLabel: string;
  errors: Map<string, string>;
}) {
  const { t } = useTranslation();
  const setSpan = (i: number, patch: Partial<OpeningSpan>) =>
    onChange(spans.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  return (
    <fieldset className="pc-stack ph-hours" data-testid="opening-hours">
      <legend>{t('screens.health.hours.label')}</legend>
      <p className="pc-muted pl-small">{t('screens.health.hours.help')}</p>
      {spans.length === 0 ? (
        <p className="pl-small" data-testid="hours-none">
          {noneLabel}
        </p>
      ) : null}
      {spans.map((span, i) => {
        const error = errors.get(`openingHours.${i}`);
        return (
          <fieldset
            // biome-ignore lint/suspicious/noArrayIndexKey: spans have no id; their order is their identity here
            key={i}
            className="ph-span"
            data-testid="opening-span"
            aria-label={t('screens.health.hours.span', { n: i + 1 })}
          >
            <WeekdayChecks
              className="ph-span__days"
              label={t('screens.health.hours.days')}
              days={span.days}
              onChange={(days) => setSpan(i, { days: days as OpeningSpan['days'] })}
            />
            <div className="ph-span__times">
              <TimeField
                id={`${idPrefix}-opens-${i}`}
                label={t('screens.health.hours.opens')}
                value={span.start}
                onChange={(start) => setSpan(i, { start })}
              />
              <TimeField
                id={`${idPrefix}-closes-${i}`}
                label={t('screens.health.hours.closes')}
                value={span.end}
                onChange={(end) => setSpan(i, { end })}
              />
            </div>
            {span.end < span.start ? (
              <span className="pc-muted pl-small">{t('screens.health.hours.nextDay')}</span>
            ) : null}
            <div>
              <Button type="button" variant="ghost" size="sm" onClick={() => onChange(spans.filter((_, j) => j !== i))}>
                {t('screens.health.hours.remove')}
              </Button>
            </div>
            {error ? <FieldError>{error}</FieldError> : null}
          </fieldset>
        );
      })}
      <FieldError>{errors.get('openingHours') ?? null}</FieldError>
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={spans.length >= OPENING_SPANS_MAX}
          onClick={() => onChange([...spans, { ...NEW_SPAN, days: [...NEW_SPAN.days] }])}
        >
          {t('screens.health.hours.add')}
        </Button>
      </div>
    </fieldset>
  );
}
