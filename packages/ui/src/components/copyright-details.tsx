import type { ListingCopyright } from '@pagecast/contracts';
import { useTranslation } from '@pagecast/i18n';

/**
 * Whose a bought or offered file is: the author, company and notice its seller stated, shown to the buyer on the
 * listing, its preview, the purchase dialog and the bought files. `compact`: the author (and company) on one line.
 */
export function CopyrightDetails({
  copyright,
  compact = false,
}: {
  copyright: ListingCopyright | null | undefined;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  if (!copyright) return null;
  const { authorName, companyName, copyrightText } = copyright;
  if (compact) {
    return (
      <p className="pc-rights pc-rights--compact" data-testid="copyright-author">
        {t('common.rights.by', { author: companyName ? `${authorName} (${companyName})` : authorName })}
      </p>
    );
  }
  return (
    <section className="pc-rights" aria-label={t('common.rights.title')} data-testid="copyright-details">
      <dl>
        <dt>{t('common.rights.author')}</dt>
        <dd>{authorName}</dd>
        {companyName ? (
          <>
            <dt>{t('common.rights.company')}</dt>
            <dd>{companyName}</dd>
          </>
        ) : null}
        {copyrightText ? (
          <>
            <dt>{t('common.rights.notice')}</dt>
            <dd>{copyrightText}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
