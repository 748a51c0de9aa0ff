import { useId } from 'react';

/**
 * A progress bar with its name shown above it (the upload dialog shows two, one after the other: bare bars did not
 * say which was which) and, beside the name, what it has reached. `value` null = not known yet (a moving stripe).
 */
export function ProgressBar({
  value,
  label,
  detail,
  testId,
  detailTestId,
}: {
  value: number | null;
  label: string;
  detail?: string;
  testId?: string;
  detailTestId?: string;
}) {
  const labelId = useId();
  return (
    <div className="pf-progress-field">
      <div className="pf-progress-field__head">
        <span id={labelId} className="pf-progress-field__label">
          {label}
        </span>
        {detail ? (
          <span className="pc-muted pf-small" data-testid={detailTestId}>
            {detail}
          </span>
        ) : null}
      </div>
      <div
        className={`pf-progress${value === null ? ' pf-progress--indeterminate' : ''}`}
        role="progressbar"
        aria-labelledby={labelId}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={value ?? undefined}
        aria-valuetext={detail}
        data-testid={testId}
      >
        <div className="pf-progress__bar" style={value === null ? undefined : { width: `${value}%` }} />
      </div>
    </div>
  );
}
