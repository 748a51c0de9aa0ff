import { constants, defaultTitleFromFilename, uploadKindOf } from '@pagecast/contracts';
import {
  Button,
  describeError,
  Dialog,
  HttpError,
  Field,
  FieldError,
  fieldAria,
  Input,
  toast,
  useSessionExpired,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef } from 'react';
import { type UseFormReturn, useForm } from 'react-hook-form';
import { useTranslation } from '@pagecast/i18n';
import { fileQuery } from '../api/get-file';
import { usesResumableUpload } from '../api/upload-resumable';
import { type ConversionOutcome, conversionOutcome } from '../model/file-rules';
import { checkFile, emptyUploadForm, readUploadForm, type UploadValues } from '../model/upload-form';
import { timeLeftWords } from '../model/time-left';
import { useUpload } from '../model/use-upload';
import { ConversionStatus } from './conversion-status';
import { CopyrightFields } from './copyright-fields';
import { PricePlanPicker } from './price-plan-picker';
import { ProgressBar } from './progress-bar';
import { UploadDropzone } from './upload-dropzone';

/** The upload modal: drag and drop or pick, the spec's fields, a real progress bar for the bytes, then the pages. */
export function UploadDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const sessionExpired = useSessionExpired();

  const form = useForm<UploadValues>({ defaultValues: emptyUploadForm() });
  const { phase, percent, secondsLeft, reconnecting, uploaded, start, abort, reset } = useUpload({
    onUploaded: () => toast({ title: t('files.toasts.uploaded') }),
    onFailed: (err) => {
      if (sessionExpired(err)) return;
      const described = describeError(err, t, t('files.toasts.uploadFailed'));
      // a resumable upload that lost its connection for good keeps what was sent: picking the file again goes on
      const file = form.getValues('file');
      const resumable = file && usesResumableUpload(file) && !(err instanceof HttpError);
      const message = resumable ? `${described} ${t('files.upload.resumeHint')}` : described;
      form.setError('root', { message });
      toast({
        title: t('files.toasts.uploadFailed'),
        description: message === t('files.toasts.uploadFailed') ? undefined : message,
        variant: 'destructive',
      });
    },
  });

  // A new dialog each time it opens.
  useEffect(() => {
    if (!open) return;
    form.reset(emptyUploadForm());
    reset();
  }, [open, form, reset]);

  // the conversion of the file just sent (ConversionStatus reads and follows the same query): the footer says so
  const converted = useQuery({ ...fileQuery(uploaded?.id ?? ''), enabled: phase === 'converting' && !!uploaded });
  const outcome = phase === 'converting' ? conversionOutcome(converted.data) : null;

  const openChange = useRef(onOpenChange);
  openChange.current = onOpenChange;
  // Stable: the Dialog re-runs its focus effect whenever this changes.
  const close = useCallback(() => {
    abort();
    openChange.current(false);
  }, [abort]);
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

  const submit = async () => {
    const read = readUploadForm(form.getValues(), t);
    form.clearErrors();
    if (read.errors) {
      for (const [field, message] of Object.entries(read.errors))
        form.setError(field as keyof typeof read.errors, { message });
      return;
    }
    await start(read.input);
  };

  const busy = phase === 'uploading';

  const uploadAnother = () => {
    form.reset(emptyUploadForm());
    reset();
  };

  const footer = (
    <UploadFooter
      outcome={outcome}
      busy={busy}
      onClose={close}
      onAnother={uploadAnother}
      onSubmit={() => void submit()}
    />
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
      <div className="pc-stack" data-testid="upload-dialog" data-conversion={outcome ?? undefined}>
        {phase === 'converting' && uploaded ? (
          <>
            <p>
              <strong>{uploaded.title}</strong>
            </p>
            <ProgressBar
              value={100}
              label={t('files.upload.stepSend')}
              detail={t('files.upload.sentPercent', { percent: 100 })}
              testId="upload-progress"
            />
            <ConversionStatus fileId={uploaded.id} onDone={onConverted} />
          </>
        ) : (
          <UploadFields
            form={form}
            busy={busy}
            percent={percent}
            secondsLeft={secondsLeft}
            reconnecting={reconnecting}
            onPick={pick}
          />
        )}
      </div>
    </Dialog>
  );
}

/** What the dialog offers at each step: send; then close or leave it converting; after a failure, another file. */
function UploadFooter({
  outcome,
  busy,
  onClose,
  onAnother,
  onSubmit,
}: {
  outcome: ConversionOutcome | null;
  busy: boolean;
  onClose: () => void;
  onAnother: () => void;
  onSubmit: () => void;
}) {
  const { t } = useTranslation();
  if (outcome === 'converting') {
    return (
      <Button variant="outline" onClick={onClose} data-testid="upload-close">
        {t('files.upload.continueInBackground')}
      </Button>
    );
  }
  if (outcome === 'done') {
    return (
      <Button onClick={onClose} data-testid="upload-close">
        {t('common.close')}
      </Button>
    );
  }
  if (outcome === 'failed') {
    return (
      <>
        <Button variant="outline" onClick={onClose} data-testid="upload-close">
          {t('common.close')}
        </Button>
        <Button onClick={onAnother} data-testid="upload-another">
          {t('files.upload.uploadAnother')}
        </Button>
      </>
    );
  }
  return (
    <>
      <Button variant="outline" onClick={onClose}>
        {t('common.cancel')}
      </Button>
      <Button onClick={onSubmit} loading={busy} data-testid="upload-submit">
        {busy ? t('files.upload.uploading') : t('files.upload.submit')}
      </Button>
    </>
  );
}

/** The form the member fills: the file, its title and seconds per page, and, to sell, the plan and the rights. */
function UploadFields({
  form,
  busy,
  percent,
  secondsLeft,
  reconnecting,
  onPick,
}: {
  form: UseFormReturn<UploadValues>;
  busy: boolean;
  percent: number;
  /** time left at the measured rate, null while not known */
  secondsLeft: number | null;
  /** the connection dropped and the upload is being tried again */
  reconnecting: boolean;
  onPick: (file: File | undefined) => void;
}) {
  const { t } = useTranslation();
  const ids = useId();
  const errors = form.formState.errors;
  const file = form.watch('file');
  const selling = form.watch('isPublished');
  const plan = form.watch('publishPrice');
  return (
    <fieldset className="pf-fieldset" disabled={busy}>
      <UploadDropzone file={file} onPick={onPick} />
      <FieldError>{errors.file?.message}</FieldError>

      <Field id={`${ids}-title`} label={t('files.upload.titleLabel')} error={errors.title?.message}>
        <Input
          maxLength={constants.title.maxLength}
          {...fieldAria(`${ids}-title`, errors.title?.message)}
          {...form.register('title')}
        />
      </Field>

      {/* a video plays for its length: seconds per page do not apply to it */}
      {file && uploadKindOf(file.name, file.type) === 'video' ? (
        <p className="pc-muted" data-testid="upload-video-duration">
          {t('files.upload.videoDuration')}
        </p>
      ) : (
        <Field
          id={`${ids}-duration`}
          label={t('files.upload.durationLabel')}
          error={errors.displayDuration?.message}
          hint={t('files.upload.durationHint')}
        >
          <Input
            type="number"
            min={constants.upload.minDisplayDuration}
            max={constants.upload.maxDisplayDuration}
            {...fieldAria(`${ids}-duration`, errors.displayDuration?.message, true)}
            {...form.register('displayDuration')}
          />
        </Field>
      )}

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
        <>
          <ProgressBar
            value={percent}
            label={t('files.upload.stepSend')}
            detail={t('files.upload.sentPercent', { percent })}
            testId="upload-progress"
            detailTestId="upload-percent"
          />
          <p className="pc-muted pf-small" aria-live="polite" data-testid="upload-time-left">
            {reconnecting
              ? t('files.upload.reconnecting')
              : secondsLeft !== null
                ? (({ key, count }) => t(`files.upload.${key}`, { count }))(timeLeftWords(secondsLeft))
                : null}
          </p>
        </>
      ) : null}
      <FieldError>{errors.root?.message}</FieldError>
    </fieldset>
  );
}
