import type { FileSummary } from '@pagecast/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { showUploadedFile } from '../api/refresh-files';
import { type UploadFileInput, type UploadProgress, uploadFile } from '../api/upload-file';

export type UploadPhase = 'form' | 'uploading' | 'converting';

/**
 * The upload's states: the form, the bytes going up (with their progress, abortable), then the pages converting.
 * The page adds its toasts and form errors through the callbacks; an aborted upload calls neither.
 */
export function useUpload(callbacks: {
  onUploaded?: (file: FileSummary) => void;
  onFailed?: (error: unknown) => void;
}) {
  const queryClient = useQueryClient();
  const abortRef = useRef<AbortController | null>(null);
  const [phase, setPhase] = useState<UploadPhase>('form');
  const [progress, setProgress] = useState<UploadProgress>({ sent: 0, total: 0 });
  const [uploaded, setUploaded] = useState<FileSummary | null>(null);

  const reset = useCallback(() => {
    setPhase('form');
    setProgress({ sent: 0, total: 0 });
    setUploaded(null);
  }, []);
  const abort = useCallback(() => abortRef.current?.abort(), []);

  const start = async (input: UploadFileInput) => {
    setPhase('uploading');
    setProgress({ sent: 0, total: input.file.size });
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const result = await uploadFile(input, setProgress, controller.signal);
      showUploadedFile(queryClient, result);
      setUploaded(result);
      setPhase('converting');
      callbacks.onUploaded?.(result);
    } catch (err) {
      if (controller.signal.aborted) return;
      setPhase('form');
      callbacks.onFailed?.(err);
    } finally {
      abortRef.current = null;
    }
  };

  const percent = progress.total > 0 ? Math.round((progress.sent / progress.total) * 100) : 0;
  return { phase, percent, uploaded, start, abort, reset };
}
