import {
  constants,
  defaultTitleFromFilename,
  type FileSummary,
  type PublishPrice,
  UploadForm,
} from '@pagecast/contracts';
import { Button, describeError, Dialog, FieldError, Input, Label, toast } from '@pagecast/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionExpired } from '@pagecast/ui';
import { fileQuery } from '../api/get-file';
import { dashboardStatsQueryKey, filesQueryKey } from '../api/list-files';
import { type UploadProgress, uploadFile } from '../api/upload-file';
import { useWatchFiles } from '../api/watch-files';
import { conversionPercent, parseUploadDuration } from '../model/file-rules';
import { PricePlanPicker } from './price-plan-picker';
import { ProgressBar } from './progress-bar';
import { useDisabledReason } from './status-badge';

const ACCEPT = Object.values(constants.upload.extensions).join(',');

type Errors = Partial<Record<'file' | 'title' | 'displayDuration' | 'publishPrice' | 'authorName' | 'form', string>>;

/** Error key of a schema issue path: the field it is shown under. */
function fieldOf(path: readonly PropertyKey[]): keyof Errors {
  const [first, second] = path;
  if (first === 'copyrightInfo') return second === 'authorName' || second === undefined ? 'authorName' : 'form';
  if (first === 'file' || first === 'title' || first === 'displayDuration' || first === 'publishPrice') return first;
  return 'form';
}

/** Checks one picked file alone (type and size): the message shows at once, before the form is sent. */
function checkFile(file: File): string | undefined {
  const result = UploadForm.safeParse({ file, title: 'x' });
  if (result.success) return undefined;
  return result.error.issues.find((i) => i.path[0] === 'file')?.message;
}

function ConversionStatus({ fileId, onDone }: { fileId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data } = useQuery(fileQuery(fileId));
  useWatchFiles([fileId], () => {
    void queryClient.invalidateQueries({ queryKey: ['/api/files', fileId] });
  });
  const status = data?.status;
  const doneRef = useRef(onDone);
  doneRef.current = onDone;
  useEffect(() => {
    if (status && status !== 'processing') {
      void queryClient.invalidateQueries({ queryKey: filesQueryKey });
      void queryClient.invalidateQueries({ queryKey: dashboardStatsQueryKey });
      if (status === 'private') {
        const timer = setTimeout(() => doneRef.current(), 1200);
        return () => clearTimeout(timer);
      }
    }
    return undefined;
  }, [status, queryClient]);
  const reason = useDisabledReason(data ?? ({ status: 'private' } as FileSummary));

  if (!data || data.status === 'processing') {
    const percent = data ? conversionPercent(data) : null;
    return (
      <div className="pc-stack" data-testid="upload-converting">
        <ProgressBar value={percent} label={t('files.upload.converting')} testId="conversion-progress" />
        <p className="pc-muted">
          {data?.pageCount
            ? t('files.upload.convertingPagesOf', { done: data.pagesReady, total: data.pageCount })
            : t('files.upload.convertingPages', { done: data?.pagesReady ?? 0 })}
        </p>
      </div>
    );
  }
  if (data.status === 'disabled') {
    return (
      <div className="pc-stack" data-testid="upload-conversion-failed">
        <FieldError>{t('files.upload.conversionFailed')}</FieldError>
        <p className="pc-muted">{reason}</p>
      </div>
    );
  }
  return (
    <div className="pc-stack" data-testid="upload-converted">
      <ProgressBar value={100} label={t('files.upload.converting')} testId="conversion-progress" />
      <p>{t('files.upload.conversionDone', { n: data.pageCount })}</p>
    </div>
  );
}

/** The upload modal: drag and drop or pick, the spec's fields, a real progress bar for the bytes, then the pages. */
export function UploadDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessionExpired = useSessionExpired();
  const ids = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);

  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [duration, setDuration] = useState(String(constants.defaultDisplayDuration));
  const [selling, setSelling] = useState(false);
  const [plan, setPlan] = useState<PublishPrice | undefined>(undefined);
  const [authorName, setAuthorName] = useState('');
  const [companyName, setCompanyName] = useState('');
  const [copyrightText, setCopyrightText] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [dragging, setDragging] = useState(false);
  const [phase, setPhase] = useState<'form' | 'uploading' | 'converting'>('form');
  const [progress, setProgress] = useState<UploadProgress>({ sent: 0, total: 0 });
  const [uploaded, setUploaded] = useState<FileSummary | null>(null);

  // A new dialog each time it opens.
  useEffect(() => {
    if (!open) return;
    setFile(null);
    setTitle('');
    setDuration(String(constants.defaultDisplayDuration));
    setSelling(false);
    setPlan(undefined);
    setAuthorName('');
    setCompanyName('');
    setCopyrightText('');
    setErrors({});
    setPhase('form');
    setProgress({ sent: 0, total: 0 });
    setUploaded(null);
  }, [open]);

  const openChange = useRef(onOpenChange);
  openChange.current = onOpenChange;
  // Stable: the Dialog re-runs its focus effect whenever this changes.
  const close = useCallback(() => {
    abortRef.current?.abort();
    openChange.current(false);
  }, []);
  const onDialogOpenChange = useCallback((next: boolean) => (next ? openChange.current(true) : close()), [close]);
  const onConverted = useCallback(() => openChange.current(false), []);

  const pick = (picked: File | undefined) => {
    if (!picked) return;
    setFile(picked);
    const error = checkFile(picked);
    setErrors((e) => ({ ...e, file: error ? t(error) : undefined, form: undefined }));
    // The title follows the file unless the member typed one.
    setTitle((current) =>
      current.trim() === '' || (file && current === defaultTitleFromFilename(file.name))
        ? defaultTitleFromFilename(picked.name)
        : current,
    );
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    pick(e.dataTransfer.files[0]);
  };

  const submit = async () => {
    const displayDuration = parseUploadDuration(duration);
    const copyrightInfo = selling
      ? {
          authorName: authorName.trim(),
          ...(companyName.trim() ? { companyName: companyName.trim() } : {}),
          ...(copyrightText.trim() ? { copyrightText: copyrightText.trim() } : {}),
        }
      : undefined;
    const parsed = UploadForm.safeParse({
      file: file ?? undefined,
      title,
      displayDuration,
      isPublished: selling,
      publishPrice: selling ? plan : undefined,
      copyrightInfo,
    });
    if (!parsed.success || !file) {
      const next: Errors = {};
      for (const issue of parsed.success ? [] : parsed.error.issues) {
        const field = fieldOf(issue.path);
        next[field] ??= t(issue.message);
      }
      // 'ファイルとタイトルは必須です' is one message for both: shown once, above the buttons.
      const required = t('validation.fileAndTitleRequired');
      if (!file || next.file === required || next.title === required) {
        if (next.file === required) delete next.file;
        if (next.title === required) delete next.title;
        next.form = required;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setPhase('uploading');
    setProgress({ sent: 0, total: file.size });
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const data = parsed.data;
      const result = await uploadFile(
        {
          file,
          title: data.title,
          displayDuration: data.displayDuration,
          ...(data.isPublished && data.publishPrice && data.copyrightInfo
            ? { sale: { publishPrice: data.publishPrice, copyrightInfo: data.copyrightInfo } }
            : {}),
        },
        setProgress,
        controller.signal,
      );
      toast({ title: t('files.toasts.uploaded') });
      void queryClient.invalidateQueries({ queryKey: filesQueryKey });
      void queryClient.invalidateQueries({ queryKey: dashboardStatsQueryKey });
      queryClient.setQueryData(['/api/files', result.id], result);
      setUploaded(result);
      setPhase('converting');
    } catch (err) {
      if (controller.signal.aborted) return;
      setPhase('form');
      if (sessionExpired(err)) return;
      const message = describeError(err, t, t('files.toasts.uploadFailed'));
      setErrors({ form: message });
      toast({
        title: t('files.toasts.uploadFailed'),
        description: message === t('files.toasts.uploadFailed') ? undefined : message,
        variant: 'destructive',
      });
    } finally {
      abortRef.current = null;
    }
  };

  const percent = progress.total > 0 ? Math.round((progress.sent / progress.total) * 100) : 0;
  const busy = phase === 'uploading';

  const footer =
    phase === 'converting' ? (
      <Button variant="outline" onClick={close} data-testid="upload-close">
        {t('files.upload.continueInBackground')}
      </Button>
    ) : (
      <>
        <Button variant="outline" onClick={close}>
          {t('common.cancel')}
        </Button>
        <Button onClick={() => void submit()} loading={busy} data-testid="upload-submit">
          {busy ? t('files.upload.uploading') : t('files.upload.submit')}
        </Button>
      </>
    );

  return (
    <Dialog
      open={open}
      onOpenChange={onDialogOpenChange}
      title={t('files.upload.title')}
      description={t('files.upload.description')}
      size="lg"
      footer={footer}
    >
      <div className="pc-stack" data-testid="upload-dialog">
        {phase === 'converting' && uploaded ? (
          <>
            <p>
              <strong>{uploaded.title}</strong>
            </p>
            <ProgressBar value={100} label={t('files.upload.sent')} testId="upload-progress" />
            <ConversionStatus fileId={uploaded.id} onDone={onConverted} />
          </>
        ) : (
          <fieldset className="pf-fieldset" disabled={busy}>
            {/* biome-ignore lint/a11y/noStaticElementInteractions: the drop target; the button inside is the keyboard path */}
            <div
              className={`pf-dropzone${dragging ? ' pf-dropzone--active' : ''}`}
              data-testid="upload-dropzone"
              onDragOver={(e) => {
                e.preventDefault();
                setDragging(true);
              }}
              onDragLeave={() => setDragging(false)}
              onDrop={onDrop}
            >
              <p>{dragging ? t('files.upload.dropzoneActive') : t('files.upload.dropzone')}</p>
              <Button variant="outline" size="sm" onClick={() => inputRef.current?.click()}>
                {t('files.upload.browse')}
              </Button>
              <input
                ref={inputRef}
                type="file"
                accept={ACCEPT}
                hidden
                data-testid="upload-input"
                aria-label={t('files.upload.fileLabel')}
                onChange={(e) => {
                  pick(e.target.files?.[0]);
                  e.target.value = '';
                }}
              />
              <p className="pc-muted pf-small">{t('files.upload.accepted')}</p>
              {file ? (
                <p className="pf-selected" data-testid="upload-selected">
                  {t('files.upload.selectedFile', { name: file.name, size: (file.size / 1024).toFixed(0) })}
                </p>
              ) : null}
            </div>
            <FieldError>{errors.file}</FieldError>

            <div className="pc-field">
              <Label htmlFor={`${ids}-title`}>{t('files.upload.titleLabel')}</Label>
              <Input
                id={`${ids}-title`}
                value={title}
                maxLength={constants.title.maxLength}
                onChange={(e) => setTitle(e.target.value)}
              />
              <FieldError>{errors.title}</FieldError>
            </div>

            <div className="pc-field">
              <Label htmlFor={`${ids}-duration`}>{t('files.upload.durationLabel')}</Label>
              <Input
                id={`${ids}-duration`}
                type="number"
                min={constants.upload.minDisplayDuration}
                max={constants.upload.maxDisplayDuration}
                value={duration}
                onChange={(e) => setDuration(e.target.value)}
              />
              <p className="pc-muted pf-small">{t('files.upload.durationHint')}</p>
              <FieldError>{errors.displayDuration}</FieldError>
            </div>

            <label className="pf-toggle">
              <input
                type="checkbox"
                checked={selling}
                onChange={(e) => setSelling(e.target.checked)}
                data-testid="upload-sell"
              />
              <span>{t('files.upload.sell')}</span>
            </label>
            {selling ? (
              <div className="pc-stack pf-sale">
                <p className="pc-muted pf-small">{t('files.upload.sellHint')}</p>
                <PricePlanPicker value={plan} onChange={setPlan} name={`${ids}-plan`} />
                <FieldError>{errors.publishPrice}</FieldError>
                <div className="pc-field">
                  <Label htmlFor={`${ids}-author`}>{t('files.copyright.authorName')}</Label>
                  <Input id={`${ids}-author`} value={authorName} onChange={(e) => setAuthorName(e.target.value)} />
                  <FieldError>{errors.authorName}</FieldError>
                </div>
                <div className="pc-field">
                  <Label htmlFor={`${ids}-company`}>{t('files.copyright.companyName')}</Label>
                  <Input id={`${ids}-company`} value={companyName} onChange={(e) => setCompanyName(e.target.value)} />
                </div>
                <div className="pc-field">
                  <Label htmlFor={`${ids}-copyright`}>{t('files.copyright.copyrightText')}</Label>
                  <textarea
                    id={`${ids}-copyright`}
                    className="pc-input"
                    rows={2}
                    value={copyrightText}
                    onChange={(e) => setCopyrightText(e.target.value)}
                  />
                </div>
              </div>
            ) : null}

            {busy ? (
              <div className="pc-stack">
                <ProgressBar value={percent} label={t('files.upload.sent')} testId="upload-progress" />
                <p className="pc-muted pf-small" data-testid="upload-percent">
                  {t('files.upload.sentPercent', { percent })}
                </p>
              </div>
            ) : null}
            <FieldError>{errors.form}</FieldError>
          </fieldset>
        )}
      </div>
    </Dialog>
  );
}
