import { useRef } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { IconAlert } from '@pagecast/ui';
import { useFitText } from '../model/fit-text';

/** Kana or kanji: the words are Japanese, so the browser breaks them between phrases (word-break: auto-phrase). */
const JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]/;
export const languageOfText = (text: string): string | undefined => (JAPANESE.test(text) ? 'ja' : undefined);

/**
 * A message takeover: the member's own words (not translated), as large as the screen allows, under a warning sign
 * and the time it began on the screen's clock. Japanese words break between phrases, never inside one.
 */
export function TakeoverMessage({
  title,
  body,
  startsAt,
  timeZone,
}: {
  title: string;
  body: string;
  startsAt: string | null;
  timeZone: string;
}) {
  const { t, i18n } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useFitText(ref, `${title}\n${body}`);
  const time = startsAt
    ? new Intl.DateTimeFormat(i18n.language, { timeZone, hour: 'numeric', minute: '2-digit' }).format(
        new Date(startsAt),
      )
    : null;
  return (
    <div className="pc-display__message" data-testid="display-message" role="alert" ref={ref}>
      <p className="pc-display__message-head">
        <span className="pc-display__warning" data-testid="display-warning">
          <IconAlert />
        </span>
        {time ? (
          <time dateTime={startsAt ?? undefined} data-testid="display-message-time">
            {t('screens.display.since', { time })}
          </time>
        ) : null}
      </p>
      <h1 className="pc-display__message-title" lang={languageOfText(title)}>
        {title}
      </h1>
      {body ? (
        <p className="pc-display__message-body" lang={languageOfText(body)}>
          {body}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Nothing on screen: with nothing assigned the display says so, and what to do in Pagecast; else (its content
 * still loading, or a gap in its schedule) only its name, quietly.
 */
export function IdleScreen({ name, unassigned }: { name: string; unassigned: boolean }) {
  const { t } = useTranslation();
  if (!unassigned)
    return (
      <p className="pc-display__idle" data-testid="display-idle">
        {name}
      </p>
    );
  return (
    <div className="pc-display__unassigned" data-testid="display-idle" data-unassigned="true">
      <p className="pc-display__name">{name}</p>
      <h1 className="pc-display__unassigned-title">{t('screens.display.nothingTitle')}</h1>
      <p className="pc-display__unassigned-help">{t('screens.display.nothingHelp', { name })}</p>
    </div>
  );
}
