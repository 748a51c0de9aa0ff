import type { HTMLAttributes } from 'react';

export type BadgeVariant = 'default' | 'secondary' | 'success' | 'warning' | 'destructive' | 'outline';

export function Badge({
  variant = 'default',
  className,
  ...rest
}: HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant }) {
  return <span className={['pc-badge', `pc-badge--${variant}`, className].filter(Boolean).join(' ')} {...rest} />;
}
