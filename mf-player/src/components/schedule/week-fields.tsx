import { useTranslation } from '@pagecast/i18n';
import { Input, Label } from '@pagecast/ui';
import { WEEKDAYS } from '../../lib/schedule-form';
import './schedule.css';

/** The days of a week a span applies to, as checkboxes (Sunday = 0); a day's name and its box never part. */
export function WeekdayChecks({
  days,
  onChange,
  className = '',
  label,
}: {
  days: readonly number[];
  onChange: (days: number[]) => void;
  className?: string;
  /** the group's name for assistive technology */
  label?: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className={`ps-days-set ${className}`} aria-label={label}>
      {WEEKDAYS.map((d) => (
        <label key={d}>
          <input
            type="checkbox"
            checked={days.includes(d)}
            onChange={(e) => onChange(e.target.checked ? [...days, d].sort() : days.filter((x) => x !== d))}
          />
          {t(`screens.weekday.${d}`)}
        </label>
      ))}
    </fieldset>
  );
}

/** A labelled time of day ("09:00"), its label above it. */
export function TimeField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="pc-field">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} type="time" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
