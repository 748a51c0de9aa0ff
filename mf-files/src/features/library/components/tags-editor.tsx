import type { FileSummary } from '@pagecast/contracts';
import { Button, FieldError, Input } from '@pagecast/ui';
import { useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useUpdateTags } from '../api/update-tags';
import { parseTagsInput } from '../model/file-rules';
import { useFileToasts } from './use-file-toasts';

/** Inline edit of the tags, comma-separated: trimmed, lowercased, no duplicates, 1–30 characters, at most 20. */
export function TagsEditor({ file, onClose }: { file: FileSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState(file.tags.join(', '));
  const [error, setError] = useState<string | undefined>();
  const mutation = useUpdateTags(
    file.id,
    useFileToasts({
      success: 'files.toasts.tagsUpdated',
      failure: 'files.toasts.tagsFailed',
      unauthorizedVia: 'api-login',
      onSuccess: onClose,
    }),
  );
  const save = () => {
    const parsed = parseTagsInput(value);
    if (!parsed.ok) {
      setError(t(parsed.error));
      return;
    }
    setError(undefined);
    mutation.mutate(parsed.tags);
  };
  return (
    <div className="pf-inline-edit" data-testid="tags-editor">
      <div className="pc-row">
        <Input
          value={value}
          aria-label={t('files.edit.tagsLabel')}
          placeholder={t('files.edit.tagsPlaceholder')}
          className="pf-inline-input pf-inline-input--wide"
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
        <Button size="sm" onClick={save} loading={mutation.isPending}>
          {t('common.save')}
        </Button>
        <Button size="sm" variant="ghost" onClick={onClose}>
          {t('common.cancel')}
        </Button>
      </div>
      <p className="pc-muted pf-small">{t('files.edit.tagsHint')}</p>
      <FieldError>{error}</FieldError>
    </div>
  );
}
