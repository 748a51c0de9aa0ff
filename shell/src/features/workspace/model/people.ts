// personName and roleWord are @pagecast/ui's (the player's proposals name people too)
export { personName, roleWord } from '@pagecast/ui';

/** A moment as the reader writes dates and times. */
export function formatMoment(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}
