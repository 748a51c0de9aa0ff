import { useTranslation } from 'react-i18next';
import { type Language, languages } from './catalogues';

/** A language picker: initI18n's instance stores the choice (localStorage 'i18nextLng') and sets <html lang>. */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation();
  const current = (i18n.resolvedLanguage ?? i18n.language ?? 'ja').slice(0, 2) as Language;

  const change = (language: Language) => i18n.changeLanguage(language);

  return (
    <label className={['pc-language', className].filter(Boolean).join(' ')}>
      <span className="pc-visually-hidden">{t('common.language')}</span>
      <select
        className="pc-select"
        data-testid="language-switcher"
        value={current}
        onChange={(e) => void change(e.target.value as Language)}
      >
        {languages.map((language) => (
          <option key={language} value={language} lang={language}>
            {t(`common.languages.${language}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
