import type { FileSummary } from '@pagecast/contracts';
import { FieldError, dashboardStatsQueryKey } from '@pagecast/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { fileQuery } from '../api/get-file';
import { filesQueryKey } from '../api/list-files';
import { useWatchFiles } from '../api/watch-files';
import { conversionPercent } from '../model/file-rules';
import { ProgressBar } from './progress-bar';
import { useDisabledReason } from './status-badge';

/** After the bytes are sent: the pages as they convert (N of M), then done, or failed with the reason. */
export function ConversionStatus({ fileId, onDone }: { fileId: string; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data } = useQuery(fileQuery(fileId));
  useWatchFiles([fileId], () => {
    void queryClient.invalidateQueries({ queryKey: fileQuery(fileId).queryKey });
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
        <ProgressBar
          value={percent}
          label={t('files.upload.stepConvert')}
          detail={
            data?.pageCount
              ? t('files.upload.convertingPagesOf', { done: data.pagesReady, total: data.pageCount })
              : t('files.upload.convertingPages', { count: data?.pagesReady ?? 0, done: data?.pagesReady ?? 0 })
          }
          testId="conversion-progress"
        />
      </div>
    );
  }
  if (data.status === 'disabled') {
    return (
      <div className="pc-stack" data-testid="upload-conversion-failed">
        <FieldError>{t('files.upload.conversionFailed')}</FieldError>
        <p className="pc-muted">{reason}</p>
        <p>{t('files.upload.conversionFailedHint')}</p>
      </div>
    );
  }
  return (
    <div className="pc-stack" data-testid="upload-converted">
      <ProgressBar
        value={100}
        label={t('files.upload.stepConvert')}
        detail={t('files.upload.conversionDone', { count: data.pageCount })}
        testId="conversion-progress"
      />
    </div>
  );
}
