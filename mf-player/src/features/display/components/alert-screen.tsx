import { type ReactNode, useRef } from 'react';
import { ALERT_LANGUAGES, type TakeoverAlert } from '@pagecast/contracts';
import { IconAlert } from '@pagecast/ui';
import { alertFacts, alertTime, drillBanner } from '../model/alert-words';
import { useFitText } from '../model/fit-text';

/**
 * A disaster alert takeover: the report's facts and the rule's words in Japanese, English, Chinese and Korean, in
 * that order, Japanese largest; yellow and white on black (contrast over 15:1), as large as the screen allows, so
 * it reads from 5 m. A drill or test says 「訓練」 in a band across the top.
 */
export function AlertScreen({ alert, timeZone }: { alert: TakeoverAlert; timeZone: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useFitText(ref, JSON.stringify(alert));
  return (
    <div
      className="pc-alert"
      data-testid="display-alert"
      data-alert-kind={alert.alertKind}
      data-drill={alert.drill ? 'true' : 'false'}
      role="alert"
      ref={ref}
    >
      {alert.drill ? (
        <p className="pc-alert__drill" data-testid="display-alert-drill" lang="ja">
          {drillBanner()}
        </p>
      ) : null}
      {ALERT_LANGUAGES.map((lang, i) => {
        const words = alert.texts[lang];
        const Title = i === 0 ? 'h1' : 'h2';
        return (
          <section key={lang} className={`pc-alert__lang pc-alert__lang--${i === 0 ? 'first' : 'other'}`} lang={lang}>
            <Title className="pc-alert__title">
              {i === 0 ? (
                <span className="pc-alert__sign" aria-hidden="true">
                  <IconAlert />
                </span>
              ) : null}
              {words.title}
            </Title>
            <p className="pc-alert__facts" data-testid={`display-alert-facts-${lang}`}>
              {alertFacts(alert, lang)}
              <span className="pc-alert__time"> · {alertTime(alert, lang, timeZone)}</span>
            </p>
            {words.body ? <p className="pc-alert__body">{words.body}</p> : null}
          </section>
        );
      })}
    </div>
  );
}

/**
 * A disaster alert whose rule shows a file: the file's page full screen, and over its foot a black band with the
 * report's facts and time (Japanese first and largest, then English, Chinese and Korean), yellow and white on black
 * as the words screen, so it reads from 5 m whatever the file's colours; a drill's 「訓練」 band above it.
 */
export function AlertFileScreen({
  alert,
  timeZone,
  children,
}: {
  alert: TakeoverAlert;
  timeZone: string;
  children: ReactNode;
}) {
  return (
    <div
      className="pc-alert-file"
      data-testid="display-alert"
      data-alert-kind={alert.alertKind}
      data-drill={alert.drill ? 'true' : 'false'}
      data-file={alert.fileId}
    >
      {children}
      <div className="pc-alert-band" role="alert" data-testid="display-alert-band">
        {alert.drill ? (
          <p className="pc-alert__drill" data-testid="display-alert-drill" lang="ja">
            {drillBanner()}
          </p>
        ) : null}
        {ALERT_LANGUAGES.map((lang, i) => (
          <p
            key={lang}
            lang={lang}
            className={`pc-alert-band__facts pc-alert-band__facts--${i === 0 ? 'first' : 'other'}`}
            data-testid={`display-alert-facts-${lang}`}
          >
            {i === 0 ? (
              <span className="pc-alert__sign" aria-hidden="true">
                <IconAlert />{' '}
              </span>
            ) : null}
            {alertFacts(alert, lang)}
            <span className="pc-alert__time"> · {alertTime(alert, lang, timeZone)}</span>
          </p>
        ))}
      </div>
    </div>
  );
}
