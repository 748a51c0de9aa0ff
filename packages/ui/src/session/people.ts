// How pages name the people of a workspace (the members list holds names, the other records only user ids).
import type { TFunction } from 'i18next';

/** A person's name in the reader's language's order (family name first in Japanese), else their address. */
export function personName(
  person: { firstName: string | null; lastName: string | null; email?: string },
  language: string,
): string {
  const first = person.firstName?.trim();
  const last = person.lastName?.trim();
  const parts = language.startsWith('ja') ? [last, first] : [first, last];
  const name = parts.filter(Boolean).join(' ');
  return name || person.email || '';
}

/** The words of a role. */
export const roleWord = (t: TFunction, role: string): string => t(`workspace.roles.${role}`, { defaultValue: role });
