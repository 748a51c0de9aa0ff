import type { Screen } from '@pagecast/contracts';
import { Badge, Button, Card, CardContent, CardHeader } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { useRevokeScreen } from '../api/revoke-screen';
import { AssignmentEditor } from './assignment-editor';

export function ScreenCard({ screen }: { screen: Screen }) {
  const { t, i18n } = useTranslation();
  const revoke = useRevokeScreen();
  const when = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso))
      : '—';
  return (
    <Card data-testid={`screen-${screen.id}`}>
      <CardHeader>
        <h3>
          {screen.name}{' '}
          <Badge variant={screen.online ? 'success' : 'secondary'} data-testid="screen-status">
            {screen.online ? t('screens.online') : t('screens.offline')}
          </Badge>
        </h3>
      </CardHeader>
      <CardContent>
        <dl className="pc-stack">
          <div>
            <dt>{t('screens.lastSeen')}</dt>
            <dd>{when(screen.lastSeenAt)}</dd>
          </div>
          <div>
            <dt>{t('screens.nowPlaying')}</dt>
            <dd data-testid="screen-now-playing">
              {screen.nowPlaying?.fileId
                ? t('screens.nowPlayingValue', {
                    file: screen.nowPlaying.fileId,
                    page: (screen.nowPlaying.page ?? 0) + 1,
                  })
                : '—'}
            </dd>
          </div>
          <div>
            <dt>{t('screens.appVersion')}</dt>
            <dd>{screen.appVersion ?? '—'}</dd>
          </div>
          <div>
            <dt>{t('screens.screenSize')}</dt>
            <dd>{screen.screenSize ? `${screen.screenSize.width}×${screen.screenSize.height}` : '—'}</dd>
          </div>
          <div>
            <dt>{t('screens.timeZone')}</dt>
            <dd>{screen.timeZone}</dd>
          </div>
        </dl>
        <AssignmentEditor screen={screen} />
        <Button
          variant="destructive"
          onClick={() => {
            if (window.confirm(t('screens.revokeConfirm', { name: screen.name }))) revoke.mutate(screen.id);
          }}
        >
          {t('screens.revoke')}
        </Button>
      </CardContent>
    </Card>
  );
}
