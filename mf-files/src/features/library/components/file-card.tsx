import type { FileSummary } from '@pagecast/contracts';
import { Button, buttonClass, Card, IconPlay, inWorkspace } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { canEditPublishSettings, conversionPercent, formatLength } from '../model/file-rules';
import { DisplayModeEditor } from './display-mode-editor';
import { DurationEditor } from './duration-editor';
import { KindBadge, useKindLabel } from './kind-badge';
import { ProgressBar } from './progress-bar';
import { StatusBadge, useDisabledReason } from './status-badge';
import { TagsEditor } from './tags-editor';

export type EditKind = 'duration' | 'mode' | 'tags';

export interface FileCardProps {
  file: FileSummary;
  /** which inline editors are open on this card (one card at a time per kind) */
  editing: ReadonlySet<EditKind>;
  onEdit: (kind: EditKind, open: boolean) => void;
  onDelete: () => void;
  onPublishSettings: () => void;
}

const signageUrl = (id: string) => `/signage/${encodeURIComponent(id)}`;

export function FileCard({ file, editing, onEdit, onDelete, onPublishSettings }: FileCardProps) {
  const { t, i18n } = useTranslation();
  const reason = useDisabledReason(file);
  const processing = file.status === 'processing';
  const playable = file.status !== 'disabled' && (file.pagesReady > 0 || file.pageCount > 0);

  return (
    <Card className="pf-card" data-testid="file-card" data-file-id={file.id} data-title={file.title}>
      <FileThumb file={file} playable={playable} />
      <div className="pf-card__body">
        <div className="pf-card__head">
          <h3 className="pf-card__title" title={file.title}>
            {file.title}
          </h3>
          <button
            type="button"
            className="pf-icon-btn pf-icon-btn--danger"
            aria-label={t('files.card.delete')}
            title={t('files.card.delete')}
            onClick={onDelete}
            data-testid="file-delete"
          >
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
              <path
                fill="currentColor"
                d="M9 3h6l1 2h4v2H4V5h4l1-2Zm-3 6h12l-1 12H7L6 9Zm4 2v8h2v-8h-2Zm4 0v8h2v-8h-2Z"
              />
            </svg>
          </button>
        </div>
        <div className="pc-row pf-card__meta">
          <StatusBadge file={file} />
          <KindBadge file={file} />
          {file.isPublished && file.publishPrice ? (
            <span className="pf-price" data-testid="file-price">
              {t('files.card.price', { price: file.publishPrice.toLocaleString(i18n.language) })}
            </span>
          ) : null}
        </div>
        {processing ? (
          <div className="pc-stack pf-card__converting" data-testid="file-converting">
            <ProgressBar
              value={conversionPercent(file)}
              label={t('files.upload.stepConvert')}
              detail={
                file.kind === 'video'
                  ? t('files.card.transcoding')
                  : file.pageCount
                    ? t('files.card.convertingOf', {
                        count: file.pageCount,
                        done: file.pagesReady,
                        total: file.pageCount,
                      })
                    : t('files.card.converting', { count: file.pagesReady, done: file.pagesReady })
              }
            />
          </div>
        ) : null}
        {reason ? (
          <p className="pf-reason" data-testid="file-disabled-reason">
            {reason}
          </p>
        ) : null}

        <FileProperties file={file} editing={editing} onEdit={onEdit} />

        <div className="pc-row pf-card__actions">
          <a
            className={buttonClass('outline', 'sm')}
            href={inWorkspace(signageUrl(file.id))}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="file-signage"
          >
            {t('files.card.signage')}
          </a>
          {canEditPublishSettings(file) ? (
            <Button size="sm" variant="secondary" onClick={onPublishSettings} data-testid="file-publish-settings">
              {t('files.card.publishSettings')}
            </Button>
          ) : null}
        </div>
      </div>
    </Card>
  );
}

/** The first page's image, with the play button over it while the file can be played. */
function FileThumb({ file, playable }: { file: FileSummary; playable: boolean }) {
  const { t } = useTranslation();
  const kindLabel = useKindLabel(file);
  return (
    <div className="pf-card__thumb">
      {file.thumbnailUrl ? (
        <img src={file.thumbnailUrl} alt="" loading="lazy" />
      ) : (
        <span className="pf-card__kind">{kindLabel}</span>
      )}
      {playable ? (
        <a
          className="pf-card__play"
          href={`${signageUrl(file.id)}?autoplay=true`}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={t('files.card.play')}
          title={t('files.card.play')}
          data-testid="file-play"
        >
          <IconPlay />
        </a>
      ) : (
        <span className="pf-card__play pf-card__play--off" aria-hidden="true">
          <IconPlay />
        </span>
      )}
    </div>
  );
}

/** A video's length, its file size, and whether it plays as uploaded or was converted to H.264, and why. */
function VideoProperties({ file }: { file: FileSummary }) {
  const { t, i18n } = useTranslation();
  const media = file.media;
  if (!media) return null;
  const mb = ((file.sizeBytes ?? 0) / (1024 * 1024)).toLocaleString(i18n.language, { maximumFractionDigits: 1 });
  return (
    <>
      {media.durationMs !== undefined ? (
        <>
          <dt>{t('files.card.lengthLabel')}</dt>
          <dd data-testid="file-length">{formatLength(media.durationMs)}</dd>
        </>
      ) : null}
      {file.sizeBytes !== undefined ? (
        <>
          <dt>{t('files.card.sizeLabel')}</dt>
          <dd data-testid="file-size">{t('files.card.size', { mb })}</dd>
        </>
      ) : null}
      {media.processing ? (
        <>
          <dt>{t('files.card.processingLabel')}</dt>
          <dd data-testid="file-processing">
            {media.processing === 'kept'
              ? t('files.card.videoKept')
              : t('files.card.videoTranscoded', {
                  reasons: new Intl.ListFormat(i18n.language).format(
                    (media.transcodeReasons ?? []).map((r) => t(`files.videoReasons.${r}`)),
                  ),
                })}
          </dd>
        </>
      ) : null}
    </>
  );
}

/** What the member may read and change in place: pages, seconds per page, display mode, tags, sales, date. */
function FileProperties({ file, editing, onEdit }: Pick<FileCardProps, 'file' | 'editing' | 'onEdit'>) {
  const { t, i18n } = useTranslation();
  const processing = file.status === 'processing';
  const created = new Date(file.createdAt).toLocaleDateString(i18n.language);
  return (
    <dl className="pf-props">
      {(file.kind === 'image' || file.kind === 'video') && file.media ? (
        <>
          <dt>{t('files.card.dimensionsLabel')}</dt>
          <dd data-testid="file-dimensions">
            {t('files.card.dimensions', {
              width: file.media.width.toLocaleString(i18n.language),
              height: file.media.height.toLocaleString(i18n.language),
            })}
          </dd>
          {file.kind === 'video' ? <VideoProperties file={file} /> : null}
        </>
      ) : (
        <>
          <dt>{t('files.card.pagesLabel')}</dt>
          <dd data-testid="file-pages">
            {t('files.card.pages', { n: processing ? file.pagesReady : file.pageCount })}
          </dd>
        </>
      )}

      {/* a video plays for its length (shown above), not seconds per page */}
      {file.kind === 'video' ? null : (
        <>
          <dt>{t('files.card.durationLabel')}</dt>
          <dd>
            {editing.has('duration') ? (
              <DurationEditor file={file} onClose={() => onEdit('duration', false)} />
            ) : (
              <button
                type="button"
                className="pf-editable"
                onClick={() => onEdit('duration', true)}
                data-testid="file-duration"
                title={t('files.card.edit')}
              >
                {/* a photo is one image: its seconds, not seconds per page */}
                {t(file.kind === 'image' ? 'files.card.durationPhoto' : 'files.card.duration', {
                  seconds: file.displayDuration,
                })}
              </button>
            )}
          </dd>
        </>
      )}

      <dt>{t('files.card.modeLabel')}</dt>
      <dd>
        {editing.has('mode') ? (
          <DisplayModeEditor file={file} onClose={() => onEdit('mode', false)} />
        ) : (
          <button
            type="button"
            className="pf-editable"
            onClick={() => onEdit('mode', true)}
            data-testid="file-mode"
            title={t('files.card.edit')}
          >
            {t(`files.displayModes.${file.displayMode}`)}
          </button>
        )}
      </dd>

      <dt>{t('files.card.tagsLabel')}</dt>
      <dd>
        {editing.has('tags') ? (
          <TagsEditor file={file} onClose={() => onEdit('tags', false)} />
        ) : (
          <button
            type="button"
            className="pf-editable pf-tags"
            onClick={() => onEdit('tags', true)}
            data-testid="file-tags"
            title={t('files.card.edit')}
          >
            {file.tags.length ? (
              file.tags.map((tag) => (
                <span key={tag} className="pf-tag">
                  {tag}
                </span>
              ))
            ) : (
              <span className="pc-muted">{t('files.card.noTags')}</span>
            )}
          </button>
        )}
      </dd>

      {file.isPublished || file.copiesSold ? (
        <>
          <dt>{t('files.card.salesLabel')}</dt>
          <dd data-testid="file-sales" data-copies={file.copiesSold ?? 0} data-earned={file.pointsEarned ?? 0}>
            {t('files.card.sales', {
              count: file.copiesSold ?? 0,
              copies: (file.copiesSold ?? 0).toLocaleString(i18n.language),
              earned: t('files.card.earned', {
                count: file.pointsEarned ?? 0,
                points: (file.pointsEarned ?? 0).toLocaleString(i18n.language),
              }),
            })}
          </dd>
        </>
      ) : null}

      <dt>{t('files.card.createdLabel')}</dt>
      <dd data-testid="file-created">{created}</dd>
    </dl>
  );
}
