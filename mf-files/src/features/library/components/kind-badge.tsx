import type { FileSummary } from '@pagecast/contracts';
import { Badge } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';

/** How a video codec ffprobe names is written for people. */
export function codecLabel(codec: string): string {
  const names: Record<string, string> = {
    h264: 'H.264',
    hevc: 'HEVC',
    vp9: 'VP9',
    vp8: 'VP8',
    av1: 'AV1',
    mpeg4: 'MPEG-4',
  };
  return names[codec] ?? codec.toUpperCase();
}

/**
 * A photo's badge on its card: that it is a photo, and its format (HEIC, JPEG...); a video's: that it is a video, and
 * the codec it plays in (H.264 once transcoded). Documents show none.
 */
export function KindBadge({ file }: { file: FileSummary }) {
  const { t } = useTranslation();
  if (file.kind === 'video') {
    const codec = file.media?.videoCodec;
    return (
      <Badge variant="outline" data-testid="file-kind" data-kind={file.kind} data-format={file.media?.format ?? ''}>
        {codec ? t('files.kinds.videoWithCodec', { codec: codecLabel(codec) }) : t('files.kinds.video')}
      </Badge>
    );
  }
  if (file.kind !== 'image') return null;
  const format = file.media?.format.toUpperCase();
  return (
    <Badge variant="outline" data-testid="file-kind" data-kind={file.kind} data-format={file.media?.format ?? ''}>
      {format ? t('files.kinds.imageWithFormat', { format }) : t('files.kinds.image')}
    </Badge>
  );
}

/** What a card shows in place of a thumbnail not made yet: the document's type, or the word for a photo. */
export function useKindLabel(file: Pick<FileSummary, 'kind'>): string {
  const { t } = useTranslation();
  if (file.kind === 'image') return t('files.kinds.image');
  if (file.kind === 'video') return t('files.kinds.video');
  return file.kind.toUpperCase();
}
