import type { TFunction } from 'i18next';
import { videoTime } from '../../../lib/health/model/health-text';

/**
 * How much of a file there is, as the file lists say it: a video its length (m:ss; it plays for its length, its
 * one "page" is only its poster), a document or a photo its pages.
 */
export function fileExtent(
  t: TFunction,
  file: { kind?: string; pageCount: number; media?: { durationMs?: number } | null },
): string {
  if (file.kind === 'video')
    return file.media?.durationMs !== undefined
      ? t('playlist.videoLength', { length: videoTime(file.media.durationMs / 1000) })
      : t('playlist.video');
  return t('playlist.pages', { count: file.pageCount });
}
