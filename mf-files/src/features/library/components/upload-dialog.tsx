import {
  constants,
  defaultTitleFromFilename,
  type FileSummary,
  type PublishPrice,
  UploadForm,
} from '@pagecast/contracts';
import { Button, describeError, Dialog, FieldError, Input, Label, toast } from '@pagecast/ui';
import { useQueryClient } from '@tanstack/react-query';
import { type DragEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSessionExpired } from '@pagecast/ui';
import { dashboardStatsQueryKey, filesQueryKey } from '../api/list-files';
import { type UploadProgress, uploadFile } from '../api/upload-file';
import { copyrightToSend, parseUploadDuration } from '../model/file-rules';
import { ConversionStatus } from './conversion-status';
import { CopyrightFields, type CopyrightValues } from './copyright-fields';
import { PricePlanPicker } from './price-plan-picker';
import { ProgressBar } from './progress-bar';

const ACCEPT = Object.values(constants.upload.extensions).join(',');

interface UploadValues extends CopyrightValues {
  file: File | null;
  title: string;
  /** as typed: parsed (and defaulted) when sent */
  displayDuration: string;
  isPublished: boolean;
  publishPrice: PublishPrice | undefined;
}
type ErrorField = 'file' | 'title' | 'displayDuration' | 'publishPrice' | 'authorName' | 'root';

const emptyForm = (): UploadValues => ({
  file: null,
  title: '',
  displayDuration: String(constants.defaultDisplayDuration),
  isPublished: false,
  publishPrice: undefined,
  authorName: '',
  companyName: '',
  copyrightText: '',
});

/** Error key of a schema issue path: the field it is shown under ('root': above the buttons). */
function fieldOf(path: readonly PropertyKey[]): ErrorField {
  const [first, second] = path;
  if (first === 'copyrightInfo') return second === 'authorName' || second === undefined ? 'authorName' : 'root';
  if (first === 'file' || first === 'title' || first === 'displayDuration' || first === 'publishPrice') return first;
  return 'root';
}

/** Checks one picked file alone (type and size): the message shows at once, before the form is sent. */
function checkFile(file: File): string | undefined {
  const result = UploadForm.safeParse({ file, title: 'x' });
  if (result.success) return undefined;
  return result.error.issues.find((i) => i.path[0] === 'file')?.message;
}

/** The upload modal: drag and drop or pick, the spec's fields, a real progress bar for the bytes, then the pages. */
export function UploadDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessionExpired = useSessionExpired();
  const ids = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);

  const form = useForm<UploadValues>({ defaultValues: emptyForm() });
  const errors = form.formState.errors;
  const file = form.watch('file');
  const selling = form.watch('isPublished');
  const plan = form.watch('publishPrice');
  const [dragging, setDragging] = useState(false);
  const [phase, setPhase] = useState<'form' | 'uploading' | 'converting'>('form');
  const [progress, setProgress] = useState<UploadProgress>({ sent: 0, total: 0 });
  const [uploaded, setUploaded] = useState<FileSummary | null>(null);

  // A new dialog each time it opens.
  useEffect(() => {
    if (!open) return;
    form.reset(emptyForm());
    setPhase('form');
    setProgress({ sent: 0, total: 0 });
    setUploaded(null);
  }, [open, form]);

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
    const previous = form.getValues('file');
    form.setValue('file', picked);
    const error = checkFile(picked);
    form.clearErrors('file');
    form.clearErrors('root');
    if (error) form.setError('file', { message: t(error) });
    // The title follows the file unless the member typed one.
    const current = form.getValues('title');
    if (current.trim() === '' || (previous && current === defaultTitleFromFilename(previous.name)))
      form.setValue('title', defaultTitleFromFilename(picked.name));
  };

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    e.preventDefault();
    setDragging(false);
    pick(e.dataTransfer.files[0]);
  };

  const submit = async () => {
    const values = form.getValues();
    const { file } = values;
    const selling = values.isPublished;
    const parsed = UploadForm.safeParse({
      file: file ?? undefined,
      title: values.title,
      displayDuration: parseUploadDuration(values.displayDuration),
      isPublished: selling,
      publishPrice: selling ? values.publishPrice : undefined,
      // a seller's author name is required even when every copyright field is empty
      copyrightInfo: selling ? (copyrightToSend(values) ?? { authorName: '' }) : undefined,
    });
    form.clearErrors();
    if (!parsed.success || !file) {
      const next: Partial<Record<ErrorField, string>> = {};
      for (const issue of parsed.success ? [] : parsed.error.issues) {
        const field = fieldOf(issue.path);
        next[field] ??= t(issue.message);
      }
      // 'ファイルとタイトルは必須です' is one message for both: shown once, above the buttons.
      const required = t('validation.fileAndTitleRequired');
      if (!file || next.file === required || next.title === required) {
        if (next.file === required) delete next.file;
        if (next.title === required) delete next.title;
        next.root = required;
      }
      for (const [field, message] of Object.entries(next)) form.setError(field as ErrorField, { message });
      return;
    }
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
      form.setError('root', { message });
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
            <FieldError>{errors.file?.message}</FieldError>

            <div className="pc-field">
              <Label htmlFor={`${ids}-title`}>{t('files.upload.titleLabel')}</Label>
              <Input id={`${ids}-title`} maxLength={constants.title.maxLength} {...form.register('title')} />
              <FieldError>{errors.title?.message}</FieldError>
            </div>

            <div className="pc-field">
              <Label htmlFor={`${ids}-duration`}>{t('files.upload.durationLabel')}</Label>
              <Input
                id={`${ids}-duration`}
                type="number"
                min={constants.upload.minDisplayDuration}
                max={constants.upload.maxDisplayDuration}
                {...form.register('displayDuration')}
              />
              <p className="pc-muted pf-small">{t('files.upload.durationHint')}</p>
              <FieldError>{errors.displayDuration?.message}</FieldError>
            </div>

            <label className="pf-toggle">
              <input type="checkbox" {...form.register('isPublished')} data-testid="upload-sell" />
              <span>{t('files.upload.sell')}</span>
            </label>
            {selling ? (
              <div className="pc-stack pf-sale">
                <p className="pc-muted pf-small">{t('files.upload.sellHint')}</p>
                <PricePlanPicker value={plan} onChange={(p) => form.setValue('publishPrice', p)} name={`${ids}-plan`} />
                <FieldError>{errors.publishPrice?.message}</FieldError>
                <CopyrightFields
                  idPrefix={ids}
                  fields={{
                    authorName: form.register('authorName'),
                    companyName: form.register('companyName'),
                    copyrightText: form.register('copyrightText'),
                  }}
                  authorError={errors.authorName?.message}
                />
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
            <FieldError>{errors.root?.message}</FieldError>
          </fieldset>
        )}
      </div>
    </Dialog>
  );
}
