import { useRef } from 'react';
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
