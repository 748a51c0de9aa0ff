import { Input, Label } from '@pagecast/ui';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';

/** Typing waits this long before searching, so each key press is not a request. */
export const SEARCH_DEBOUNCE_MS = 300;

/** Title search box: its value goes out after a short pause (or at once with Enter). */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(value);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only the typed text starts a search
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onSearch(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  return (
    <form
      className="pm-search"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(text);
      }}
    >
      <Label htmlFor={id}>{t('marketplace.search.label')}</Label>
      <Input
        id={id}
        type="search"
        value={text}
        maxLength={100}
        placeholder={t('marketplace.search.placeholder')}
        onChange={(e) => setText(e.target.value)}
        data-testid="market-search"
      />
    </form>
  );
}
