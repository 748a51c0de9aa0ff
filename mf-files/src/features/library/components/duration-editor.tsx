import type { FileSummary } from '@pagecast/contracts';
import { Button, FieldError, Input } from '@pagecast/ui';
import { useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useUpdateDuration } from '../api/update-duration';
import { parseInlineDuration } from '../model/file-rules';
import { useFileToasts } from './use-file-toasts';

/** Inline edit of the seconds per page: Enter saves, Escape cancels; an integer 1–300. */
export function DurationEditor({ file, onClose }: { file: FileSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(String(file.displayDuration));
  const [error, setError] = useState<string | undefined>();
  const mutation = useUpdateDuration(
    file.id,
    useFileToasts({
      success: 'files.toasts.durationUpdated',
      failure: 'files.toasts.durationFailed',
      onSuccess: onClose,
    }),
  );
  const save = () => {
    const seconds = parseInlineDuration(value);
    if (seconds === null) {
      setError(t('validation.durationRange300'));
      return;
    }
    setError(undefined);
    mutation.mutate({ displayDuration: seconds });
  };
  return (
    <div className="pf-inline-edit" data-testid="duration-editor">
      <div className="pc-row">
        <Input
          type="number"
          min={1}
          max={300}
          value={value}
          aria-label={t('files.edit.durationLabel')}
          className="pf-inline-input"
          autoFocus
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              save();
            } else if (e.key === 'Escape') {
              e.preventDefault();
              onClose();
            }
          }}
        />
        <span className="pc-muted">{t('files.edit.seconds')}</span>
        <Button size="sm" onClick={save} loading={mutation.isPending}>
          {t('common.save')}
        </Button>
        <Button size="sm" variant="ghost" onClick={onClose}>
          {t('common.cancel')}
        </Button>
      </div>
      <FieldError>{error}</FieldError>
    </div>
  );
}
