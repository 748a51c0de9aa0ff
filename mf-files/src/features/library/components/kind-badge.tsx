import type { FileSummary } from '@pagecast/contracts';
import { Badge } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';

/** A photo's badge on its card: that it is a photo, and its format (HEIC, JPEG...). Documents show none. */
export function KindBadge({ file }: { file: FileSummary }) {
  const { t } = useTranslation();
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
  return file.kind === 'image' ? t('files.kinds.image') : file.kind.toUpperCase();
}
