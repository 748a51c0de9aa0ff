import type { FileSummary } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardDescription,
  CardHeader,
  IconUpload,
  Spinner,
  useRequireLogin,
  useSessionExpired,
  useWorkspaceCan,
  dashboardStatsQueryKey,
  purchasedFilesQuery,
} from '@pagecast/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useSearchParams } from '@pagecast/router';
import { filesQuery, filesQueryKey } from '../api/list-files';
import { useWatchFiles } from '../api/watch-files';
import { DeleteFileDialog } from './delete-file-dialog';
import { type EditKind, FileCard } from './file-card';
import { PublishSettingsDialog } from './publish-settings-dialog';
import { PurchasedFiles } from './purchased-files';
import { UploadDialog } from './upload-dialog';
import './files.css';

type Editing = Record<EditKind, string | null>;
type View = 'uploaded' | 'purchased';
const views: readonly View[] = ['uploaded', 'purchased'];
const noEditing: Editing = { duration: null, mode: null, tags: null };

// Whether the role in the workspace the page acts in may upload (a viewer sees no upload button; the server refuses
// anyway). Chosen once: a host whose @pagecast/ui predates workspaces acts in the person's own, where they may.
const useMayUpload: () => boolean =
  typeof useWorkspaceCan === 'function' ? () => useWorkspaceCan('files.write') : () => true;

function EmptyState({ onUpload }: { onUpload?: (() => void) | undefined }) {
  const { t } = useTranslation();
  return (
    <Card className="pf-empty" data-testid="files-empty">
      <div className="pf-empty__icon">
        <IconUpload />
      </div>
      <h2>{t('files.empty.title')}</h2>
      <p className="pc-muted">{t('files.empty.description')}</p>
      {onUpload ? (
        <Button onClick={onUpload} data-testid="files-empty-upload">
          {t('files.empty.action')}
        </Button>
      ) : null}
    </Card>
  );
}

function Library() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessionExpired = useSessionExpired();
  const [params, setParams] = useSearchParams();
  const files = useQuery(filesQuery);
  const mayUpload = useMayUpload();
  const purchased = useQuery(purchasedFilesQuery);
  // /files?view=purchased (the dashboard's link) opens the bought content; the tab stays in the address
  const view: View = params.get('view') === 'purchased' ? 'purchased' : 'uploaded';
  const showView = (next: View) => {
    const query = new URLSearchParams(params);
    if (next === 'purchased') query.set('view', 'purchased');
    else query.delete('view');
    setParams(query, { replace: true });
  };
  const [uploadOpen, setUploadOpen] = useState(false);
  const [editing, setEditing] = useState<Editing>(noEditing);
  const [deleting, setDeleting] = useState<FileSummary | null>(null);
  const [publishing, setPublishing] = useState<FileSummary | null>(null);

  // /files?upload=1 (the dashboard's quick action) opens the upload modal once.
  useEffect(() => {
    if (params.get('upload') !== '1') return;
    if (mayUpload) setUploadOpen(true);
    const next = new URLSearchParams(params);
    next.delete('upload');
    setParams(next, { replace: true });
  }, [params, setParams, mayUpload]);

  const handled = useRef<unknown>(null);
  useEffect(() => {
    if (files.error && handled.current !== files.error) {
      handled.current = files.error;
      sessionExpired(files.error);
    }
  }, [files.error, sessionExpired]);

  // Pages appear as they are converted: the live stream says when, the list's own polling is the fallback.
  const processing = useMemo(
    () => (files.data ?? []).filter((f) => f.status === 'processing').map((f) => f.id),
    [files.data],
  );
  useWatchFiles(processing, () => {
    void queryClient.invalidateQueries({ queryKey: filesQueryKey });
    void queryClient.invalidateQueries({ queryKey: dashboardStatsQueryKey });
  });

  const openUpload = useCallback(() => setUploadOpen(true), []);
  const closeDelete = useCallback(() => setDeleting(null), []);
  const closePublish = useCallback(() => setPublishing(null), []);

  let content: ReactNode;
  if (files.isLoading) content = <Spinner label={t('common.loading')} />;
  else if (files.isError)
    content = (
      <Card role="alert">
        <CardHeader>
          <CardDescription>{t('files.loadFailed')}</CardDescription>
        </CardHeader>
        <div className="pc-row" style={{ padding: '0 20px 20px' }}>
          <Button onClick={() => void files.refetch()}>{t('common.retry')}</Button>
        </div>
      </Card>
    );
  else if (!files.data?.length) content = <EmptyState onUpload={mayUpload ? openUpload : undefined} />;
  else
    content = (
      <div className="pf-grid" data-testid="files-grid">
        {files.data.map((file) => (
          <FileCard
            key={file.id}
            file={file}
            editing={new Set((Object.keys(editing) as EditKind[]).filter((k) => editing[k] === file.id))}
            onEdit={(kind, open) =>
              setEditing((e) => ({ ...e, [kind]: open ? file.id : e[kind] === file.id ? null : e[kind] }))
            }
            onDelete={() => setDeleting(file)}
            onPublishSettings={() => setPublishing(file)}
          />
        ))}
      </div>
    );

  return (
    <>
      <div className="pf-page-head">
        <div>
          <h1 className="pc-page__title">{t('files.title')}</h1>
          <p className="pc-page__subtitle pc-muted">{t('files.subtitle')}</p>
        </div>
        {mayUpload ? (
          <Button onClick={openUpload} data-testid="files-upload">
            {t('files.uploadButton')}
          </Button>
        ) : null}
      </div>
      <LibraryTabs
        view={view}
        counts={{ uploaded: files.data?.length, purchased: purchased.data?.length }}
        onShow={showView}
      />
      <div role="tabpanel" id={`files-panel-${view}`} aria-labelledby={`files-tab-${view}`}>
        {view === 'uploaded' ? content : <PurchasedFiles />}
      </div>
      <UploadDialog open={uploadOpen} onOpenChange={setUploadOpen} />
      {deleting ? <DeleteFileDialog file={deleting} onClose={closeDelete} /> : null}
      {publishing ? <PublishSettingsDialog file={publishing} onClose={closePublish} /> : null}
    </>
  );
}

/** File management (/files). Signed-in only: a visitor is remembered, told to log in and sent to /login. */
export function FilesPage() {
  const { allowed } = useRequireLogin();
  return (
    <div className="pc-container pc-page" data-testid="remote-mf_files">
      {allowed ? <Library /> : <Spinner />}
    </div>
  );
}

/** Uploaded and bought files, each tab with its count. */
function LibraryTabs({
  view,
  counts,
  onShow,
}: {
  view: View;
  counts: Record<View, number | undefined>;
  onShow: (view: View) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="pf-tabs" role="tablist" aria-label={t('files.tabs.label')}>
      {views.map((name) => {
        const count = counts[name];
        return (
          <button
            key={name}
            type="button"
            role="tab"
            id={`files-tab-${name}`}
            aria-selected={view === name}
            aria-controls={`files-panel-${name}`}
            className={`pc-btn pc-btn--sm ${view === name ? 'pc-btn--primary' : 'pc-btn--ghost'}`}
            onClick={() => onShow(name)}
            data-testid={`files-tab-${name}`}
          >
            {t(`files.tabs.${name}`)}
            {count === undefined ? null : (
              <span className="pf-tabs__count" data-testid={`files-tab-${name}-count`}>
                {count}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
