export function Spinner({ label, size = 'md' }: { label?: string; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <div className="pc-spinner-wrap" role="status" aria-live="polite">
      <span className={`pc-spinner pc-spinner--${size}`} aria-hidden="true" />
      {label ? <span className="pc-spinner__label">{label}</span> : null}
    </div>
  );
}
