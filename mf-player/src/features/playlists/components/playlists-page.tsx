import { Card, CardDescription, CardHeader, Spinner, useAuth } from '@pagecast/ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Playlists (/playbook, /playback). Logged out it says that login is required (spec point 2). */
export function PlaylistsPage() {
  const { t } = useTranslation();
  const { user, isLoading } = useAuth();
  let body: ReactNode;
  if (isLoading) body = <Spinner />;
  else if (!user)
    body = (
      <Card className="pc-state-card" style={{ margin: '0 auto' }}>
        <CardHeader>
          <h1 className="pc-page__title">{t('playlist.loginRequired')}</h1>
        </CardHeader>
      </Card>
    );
  else
    body = (
      <Card>
        <CardHeader>
          <h1 className="pc-page__title">{t('playlist.title')}</h1>
          <CardDescription>{t('common.comingSoon')}</CardDescription>
        </CardHeader>
      </Card>
    );
  return (
    <div className="pc-container pc-page" data-testid="remote-mf_player">
      {body}
    </div>
  );
}
