import { Button, Input, Label } from '@pagecast/ui';
import { useId, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';

/** Tag filter: add with the button or Enter, remove one chip, or clear them all (every tag must match). */
export function TagFilter({
  tags,
  onAdd,
  onRemove,
  onClear,
}: {
  tags: readonly string[];
  onAdd: (tag: string) => void;
  onRemove: (tag: string) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState('');
  const add = () => {
    if (!text.trim()) return;
    onAdd(text);
    setText('');
  };
  return (
    <div className="pm-tags">
      <Label htmlFor={id}>{t('marketplace.tags.label')}</Label>
      <div className="pm-tags__add">
        <Input
          id={id}
          value={text}
          maxLength={30}
          placeholder={t('marketplace.tags.placeholder')}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          data-testid="market-tag-input"
        />
        <Button type="button" variant="outline" onClick={add} data-testid="market-tag-add">
          {t('marketplace.tags.add')}
        </Button>
      </div>
      {tags.length ? (
        <ul className="pm-chips" aria-label={t('marketplace.tags.active')}>
          {tags.map((tag) => (
            <li key={tag} className="pm-chip" data-testid="market-tag-chip" data-tag={tag}>
              <span>#{tag}</span>
              <button
                type="button"
                className="pm-chip__remove"
                aria-label={t('marketplace.tags.remove', { tag })}
                onClick={() => onRemove(tag)}
              >
                ×
              </button>
            </li>
          ))}
          <li>
            <Button type="button" variant="ghost" size="sm" onClick={onClear} data-testid="market-tag-clear">
              {t('marketplace.tags.clear')}
            </Button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
