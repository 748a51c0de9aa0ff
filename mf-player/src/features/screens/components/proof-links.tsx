import { useTranslation } from '@pagecast/i18n';

/**
 * Signed proof of play: one download per file shown in a report, for the report's days (the proof counts whole UTC
 * days). The file is the proof itself; checking it needs no page of ours.
 */
export function ProofLinks({
  fileIds,
  pathOf,
  titleOf,
  help,
  testId,
}: {
  fileIds: string[];
  pathOf: (fileId: string) => string;
  titleOf: (fileId: string) => string;
  help: string;
  testId: string;
}) {
  const { t } = useTranslation();
  if (fileIds.length === 0) return null;
  return (
    <div className="ps-proof" data-testid={testId}>
      <h4>{t('screens.proofTitle')}</h4>
      <p className="pc-muted">{help}</p>
      <ul className="ps-proof__list">
        {fileIds.map((fileId) => (
          <li key={fileId}>
            <a
              className="pc-btn pc-btn--outline pc-btn--sm"
              href={pathOf(fileId)}
              download
              data-testid="proof-download"
            >
              {t('screens.proofDownload', { file: titleOf(fileId) })}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
