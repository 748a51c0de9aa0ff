import { type DisplayMode, displayModes, type FileSummary } from '@pagecast/contracts';
import { Button } from '@pagecast/ui';
import { useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useUpdateDisplayMode } from '../api/update-display-mode';
import { useFileToasts } from './use-file-toasts';

/** Inline edit of the display mode (横長 fit-width, 縦長 fit-height, 全画面 fill). */
export function DisplayModeEditor({ file, onClose }: { file: FileSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<DisplayMode>(file.displayMode);
  const mutation = useUpdateDisplayMode(
    file.id,
    useFileToasts({
      success: 'files.toasts.modeUpdated',
      failure: 'files.toasts.modeFailed',
      unauthorizedVia: 'api-login',
      onSuccess: onClose,
    }),
  );
  return (
    <div className="pf-inline-edit pc-row" data-testid="mode-editor">
      <select
        className="pc-select"
        value={mode}
        aria-label={t('files.edit.modeLabel')}
        onChange={(e) => setMode(e.target.value as DisplayMode)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose();
        }}
      >
        {displayModes.map((m) => (
          <option key={m} value={m}>
            {t(`files.displayModes.${m}`)}
          </option>
        ))}
      </select>
      <Button size="sm" onClick={() => mutation.mutate({ displayMode: mode })} loading={mutation.isPending}>
        {t('common.save')}
      </Button>
      <Button size="sm" variant="ghost" onClick={onClose}>
        {t('common.cancel')}
      </Button>
    </div>
  );
}
