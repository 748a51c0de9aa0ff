import { Spinner, useAuth } from '@pagecast/ui';
import type { ReactNode } from 'react';

/**
 * A page for signed-in members only (the screens pages): a spinner while the session is read, the page's own
 * "log in to see this" heading for a visitor, else the page. Its children render only for a member, so their queries
 * need no `enabled: Boolean(user)`.
 */
export function MembersOnly({ loggedOutTitle, children }: { loggedOutTitle: string; children: ReactNode }) {
  const { user, isLoading } = useAuth();
  if (isLoading) return <Spinner />;
  if (!user)
    return (
      <div className="pc-container pc-page">
        <h1 className="pc-page__title">{loggedOutTitle}</h1>
      </div>
    );
  return children;
}
