import type { FileSummary } from '@pagecast/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { showUploadedFile } from '../api/refresh-files';
import { type UploadFileInput, type UploadProgress, uploadFile } from '../api/upload-file';
import { uploadResumable, usesResumableUpload } from '../api/upload-resumable';
import { createRateMeter } from './time-left';

export type UploadPhase = 'form' | 'uploading' | 'converting';

/**
 * The upload's states: the form, the bytes going up (with their progress and time left, abortable; a dropped
 * connection of a resumable upload is retried by itself), then the pages converting.
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
  /** seconds left at the rate measured so far (null until measured) */
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  /** the connection dropped: the upload is tried again by itself */
  const [reconnecting, setReconnecting] = useState(false);

  const reset = useCallback(() => {
    setPhase('form');
    setProgress({ sent: 0, total: 0 });
    setUploaded(null);
    setSecondsLeft(null);
    setReconnecting(false);
  }, []);
  const abort = useCallback(() => abortRef.current?.abort(), []);

  const start = async (input: UploadFileInput) => {
    setPhase('uploading');
    setProgress({ sent: 0, total: input.file.size });
    const controller = new AbortController();
    abortRef.current = controller;
    const meter = createRateMeter();
    const onProgress = (p: UploadProgress) => {
      setReconnecting(false);
      setProgress(p);
      setSecondsLeft(meter.sample(p.sent, p.total, performance.now()));
    };
    try {
      // photos and videos (up to 2 GiB) go resumable; documents (10 MB) in one multipart call, as before
      const result = usesResumableUpload(input.file)
        ? await uploadResumable(
            input,
            {
              onProgress,
              onRetry: () => {
                meter.restart();
                setReconnecting(true);
              },
            },
            controller.signal,
          )
        : await uploadFile(input, onProgress, controller.signal);
      showUploadedFile(queryClient, result);
      setUploaded(result);
      setPhase('converting');
      callbacks.onUploaded?.(result);
    } catch (err) {
      if (controller.signal.aborted) return;
      setReconnecting(false);
      setPhase('form');
      callbacks.onFailed?.(err);
    } finally {
      abortRef.current = null;
    }
  };

  const percent = progress.total > 0 ? Math.round((progress.sent / progress.total) * 100) : 0;
  return { phase, percent, secondsLeft, reconnecting, uploaded, start, abort, reset };
}
