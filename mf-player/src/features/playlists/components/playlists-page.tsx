import { Card, CardHeader, Spinner, useAuth } from '@pagecast/ui';
import { type ReactNode, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { AccessibleFilesTab } from './accessible-files-tab';
import { PlaylistsTab } from './playlists-tab';

type Tab = 'playlists' | 'files';

/** Playlists (/playbook, /playback): two tabs, 'playlists' first. Logged out it says that login is required. */
export function PlaylistsPage() {
  const { t } = useTranslation();
  const { user, isLoading } = useAuth();
  const [tab, setTab] = useState<Tab>('playlists');
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
      <div className="pc-stack">
        <h1 className="pc-page__title">{t('playlist.title')}</h1>
        <div className="pc-row" role="tablist" aria-label={t('playlist.title')}>
          {(['playlists', 'files'] as const).map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`playlist-tab-${name}`}
              aria-selected={tab === name}
              aria-controls={`playlist-panel-${name}`}
              className={`pc-btn pc-btn--sm ${tab === name ? 'pc-btn--primary' : 'pc-btn--ghost'}`}
              onClick={() => setTab(name)}
            >
              {t(`playlist.tabs.${name}`)}
            </button>
          ))}
        </div>
        <div role="tabpanel" id={`playlist-panel-${tab}`} aria-labelledby={`playlist-tab-${tab}`}>
          {tab === 'playlists' ? <PlaylistsTab /> : <AccessibleFilesTab />}
        </div>
      </div>
    );
  return (
    <div className="pc-container pc-page" data-testid="remote-mf_player">
      {body}
    </div>
  );
}
