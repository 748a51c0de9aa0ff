import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Spinner,
  inWorkspace,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { accessibleFilesQuery } from '../api/list-accessible-files';
import { fileExtent } from '../model/file-extent';

/** Tab 'files': what can go in a playlist, with pages, seconds per page, the price when published, and play. */
export function AccessibleFilesTab() {
  const { t } = useTranslation();
  const files = useQuery(accessibleFilesQuery);
  if (files.isLoading) return <Spinner />;
  if (files.error) return <p className="pc-muted">{t('playlist.loadFailed')}</p>;
  const list = files.data ?? [];
  if (list.length === 0) return <p className="pc-muted">{t('playlist.noFiles')}</p>;
  return (
    <div className="pc-grid" data-testid="accessible-files">
      {list.map((file) => (
        <Card key={file.id} data-testid="accessible-file">
          <CardHeader>
            <CardTitle>{file.title}</CardTitle>
            <CardDescription>
              {/* a video: its length (it plays for its length), no seconds per page */}
              {file.kind === 'video'
                ? fileExtent(t, file)
                : `${fileExtent(t, file)} · ${t('playlist.secondsPerPage', { seconds: file.displayDuration })}`}
            </CardDescription>
          </CardHeader>
          <CardContent className="pc-row">
            {file.isPublished && file.publishPrice != null ? (
              <Badge variant="secondary">{t('playlist.price', { price: file.publishPrice.toLocaleString() })}</Badge>
            ) : null}
            {file.access === 'purchased' ? <Badge variant="outline">{t('playlist.purchased')}</Badge> : null}
            <span style={{ flex: 1 }} />
            <Button
              size="sm"
              onClick={() => window.open(inWorkspace(`/signage/${encodeURIComponent(file.id)}`), '_blank', 'noopener')}
            >
              {t('playlist.playFile')}
            </Button>
          </CardContent>
        </Card>
      ))}
    </div>
  );
}
