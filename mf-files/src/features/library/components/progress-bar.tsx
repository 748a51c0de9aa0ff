/** A progress bar; `value` null = not known yet (an indeterminate stripe). */
export function ProgressBar({ value, label, testId }: { value: number | null; label: string; testId?: string }) {
  return (
    <div
      className={`pf-progress${value === null ? ' pf-progress--indeterminate' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value ?? undefined}
      data-testid={testId}
    >
      <div className="pf-progress__bar" style={value === null ? undefined : { width: `${value}%` }} />
    </div>
  );
}
