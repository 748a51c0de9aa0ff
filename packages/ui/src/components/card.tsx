import type { HTMLAttributes } from 'react';

const cx = (...names: Array<string | undefined>) => names.filter(Boolean).join(' ');

export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cx('pc-card', className)} {...rest} />;
}
export function CardHeader({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cx('pc-card__header', className)} {...rest} />;
}
/** `level` 1 when the card is the whole screen (its title is the page's heading), 3 otherwise. */
export function CardTitle({
  className,
  level = 3,
  ...rest
}: HTMLAttributes<HTMLHeadingElement> & { level?: 1 | 2 | 3 }) {
  const Heading = `h${level}` as const;
  return <Heading className={cx('pc-card__title', className)} {...rest} />;
}
export function CardDescription({ className, ...rest }: HTMLAttributes<HTMLParagraphElement>) {
  return <p className={cx('pc-card__description', className)} {...rest} />;
}
export function CardContent({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cx('pc-card__content', className)} {...rest} />;
}
export function CardFooter({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cx('pc-card__footer', className)} {...rest} />;
}
