import {
  ALERT_BODY_MAX,
  ALERT_LANGUAGES,
  ALERT_MINUTES_MAX,
  ALERT_TITLE_MAX,
  AlertIntensity,
  type AlertLanguage,
  type AlertRules,
  type AlertTexts,
} from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  describeError,
  FieldError,
  Input,
  Label,
  Spinner,
  toast,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { accessibleFilesQuery } from '../../../lib/accessible-files';
import { useMay } from '../../../lib/use-may';
import { alertRulesQuery, useSaveAlertRules } from '../api/fleet-api';
import { SelectField } from './fields';

type RuleKey = 'earthquake' | 'tsunami' | 'emergencyWarning';
const RULES: RuleKey[] = ['earthquake', 'tsunami', 'emergencyWarning'];

/**
 * Disaster alerts (JMA's feed): which reports take over the screens of the place they concern, with which words in
 * Japanese, English, Chinese and Korean, for how long; and whether drills do. Where each screen is is set in its
 * settings (or its group's).
 */
export function AlertRulesSection() {
  const { t } = useTranslation();
  const rules = useQuery(alertRulesQuery);
  return (
    <Card data-testid="alert-rules">
      <CardHeader>
        <CardTitle level={2} id="alert-rules-title">
          {t('alerts.rules.title')}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <p className="pc-muted">{t('alerts.rules.intro')}</p>
        {rules.data ? <RulesForm initial={rules.data} /> : <Spinner />}
      </CardContent>
    </Card>
  );
}

function RulesForm({ initial }: { initial: AlertRules }) {
  const { t } = useTranslation();
  const save = useSaveAlertRules();
  // PUT /api/screens/alert-rules is screens.manage (owner, admin): the others read the rules as they are, unchangeable,
  // and get no save
  const mayChange = useMay('screens.manage');
  const [draft, setDraft] = useState<AlertRules>(initial);
  const [error, setError] = useState<string | null>(null);
  const patch = <K extends RuleKey>(key: K, change: Partial<AlertRules[K]>) =>
    setDraft((d) => ({ ...d, [key]: { ...d[key], ...change } }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!mayChange) return;
    setError(null);
    save.mutate(draft, {
      onSuccess: () => toast({ title: t('alerts.rules.saved') }),
      onError: (err) => setError(describeError(err, t, t('fleet.failed'))),
    });
  };
  return (
    <form className="pc-stack" onSubmit={submit} aria-labelledby="alert-rules-title">
      <Unchangeable when={!mayChange}>
        {RULES.map((key) => (
          <fieldset key={key} className="pc-stack pf-alert-rule" data-testid={`alert-rule-${key}`}>
            <legend>{t(`alerts.rules.${key}.title`)}</legend>
            <label className="pla-check">
              <input
                type="checkbox"
                checked={draft[key].enabled}
                onChange={(e) => patch(key, { enabled: e.target.checked })}
                data-testid={`alert-rule-${key}-enabled`}
              />
              <span>{t(`alerts.rules.${key}.enabled`)}</span>
            </label>
            {key === 'earthquake' ? (
              <SelectField
                id="alert-min-intensity"
                label={t('alerts.rules.earthquake.min')}
                value={draft.earthquake.minIntensity}
                onChange={(v) => patch('earthquake', { minIntensity: AlertIntensity.parse(v) })}
                narrow
              >
                {AlertIntensity.options.map((i) => (
                  <option key={i} value={i}>
                    {t(`alerts.intensity.${i}`)}
                  </option>
                ))}
              </SelectField>
            ) : null}
            {key === 'tsunami' ? (
              <SelectField
                id="alert-min-grade"
                label={t('alerts.rules.tsunami.min')}
                value={draft.tsunami.minGrade}
                onChange={(v) => patch('tsunami', { minGrade: v === 'major-warning' ? 'major-warning' : 'warning' })}
                narrow
              >
                <option value="warning">{t('alerts.grade.warning')}</option>
                <option value="major-warning">{t('alerts.grade.major-warning')}</option>
              </SelectField>
            ) : null}
            <div className="pc-field pf-narrow">
              <Label htmlFor={`alert-${key}-minutes`}>{t('alerts.rules.minutes')}</Label>
              <Input
                id={`alert-${key}-minutes`}
                type="number"
                min={1}
                max={ALERT_MINUTES_MAX}
                value={String(draft[key].minutes)}
                onChange={(e) => patch(key, { minutes: Number(e.target.value) })}
                required
              />
            </div>
            <FileChoice id={`alert-${key}`} fileId={draft[key].fileId} onChange={(fileId) => patch(key, { fileId })} />
            <TextsFields id={`alert-${key}`} texts={draft[key].texts} onChange={(texts) => patch(key, { texts })} />
          </fieldset>
        ))}
        <label className="pla-check">
          <input
            type="checkbox"
            checked={draft.drills}
            onChange={(e) => setDraft((d) => ({ ...d, drills: e.target.checked }))}
            data-testid="alert-rule-drills"
          />
          <span>{t('alerts.rules.drills')}</span>
        </label>
      </Unchangeable>
      <FieldError>{error}</FieldError>
      {mayChange ? (
        <Button type="submit" loading={save.isPending} data-testid="alert-rules-save">
          {t('alerts.rules.save')}
        </Button>
      ) : null}
    </form>
  );
}

/** The rules' fields, inside a disabled fieldset `when` the role may not change them (as they are otherwise). */
function Unchangeable({ when, children }: { when: boolean; children: ReactNode }) {
  if (!when) return <>{children}</>;
  return (
    <fieldset className="pc-stack pf-plain" disabled data-testid="alert-rules-fields">
      {children}
    </fieldset>
  );
}

/**
 * What a rule shows: its words, or one of the member's files (own or bought, the takeover form's list) with the
 * report's facts banded over it. The words stay: they are what shows when the file is deleted later, and it says so.
 */
function FileChoice({
  id,
  fileId,
  onChange,
}: {
  id: string;
  fileId: string | null;
  onChange: (fileId: string | null) => void;
}) {
  const { t } = useTranslation();
  const files = useQuery(accessibleFilesQuery);
  const [kind, setKind] = useState<'texts' | 'file'>(fileId ? 'file' : 'texts');
  const gone = fileId !== null && files.data !== undefined && !files.data.some((f) => f.id === fileId);
  return (
    <div className="pc-stack">
      <SelectField
        id={`${id}-shows`}
        label={t('alerts.rules.show')}
        value={kind}
        onChange={(v) => {
          const next = v === 'file' ? 'file' : 'texts';
          setKind(next);
          if (next === 'texts') onChange(null);
        }}
        narrow
      >
        <option value="texts">{t('alerts.rules.showTexts')}</option>
        <option value="file">{t('alerts.rules.showFile')}</option>
      </SelectField>
      {kind === 'file' ? (
        <>
          <SelectField
            id={`${id}-file`}
            label={t('alerts.rules.file')}
            value={fileId ?? ''}
            onChange={(v) => onChange(v === '' ? null : v)}
          >
            <option value="">{t('alerts.rules.chooseFile')}</option>
            {gone ? <option value={fileId}>{t('alerts.rules.goneFile')}</option> : null}
            {(files.data ?? []).map((f) => (
              <option key={f.id} value={f.id}>
                {f.title}
              </option>
            ))}
          </SelectField>
          <p className="pc-muted">{t('alerts.rules.fileHelp')}</p>
          {gone ? (
            <p className="pc-field-error" role="status" data-testid={`${id}-file-gone`}>
              {t('alerts.rules.fileGone')}
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

const LANGUAGE_NAMES: Record<AlertLanguage, string> = {
  ja: '日本語',
  en: 'English',
  'zh-Hans': '简体中文',
  ko: '한국어',
};

/** The words a rule shows, one title and text per language, each field in its own language. */
function TextsFields({ id, texts, onChange }: { id: string; texts: AlertTexts; onChange: (t: AlertTexts) => void }) {
  const { t } = useTranslation();
  return (
    <details>
      <summary>{t('alerts.rules.texts')}</summary>
      <div className="pc-stack">
        {ALERT_LANGUAGES.map((lang) => (
          <div key={lang} className="pc-stack" lang={lang}>
            <div className="pc-field">
              <Label htmlFor={`${id}-${lang}-title`}>
                {t('alerts.rules.textTitle', { language: LANGUAGE_NAMES[lang] })}
              </Label>
              <Input
                id={`${id}-${lang}-title`}
                value={texts[lang].title}
                maxLength={ALERT_TITLE_MAX}
                required
                onChange={(e) => onChange({ ...texts, [lang]: { ...texts[lang], title: e.target.value } })}
              />
            </div>
            <div className="pc-field">
              <Label htmlFor={`${id}-${lang}-body`}>
                {t('alerts.rules.textBody', { language: LANGUAGE_NAMES[lang] })}
              </Label>
              <textarea
                id={`${id}-${lang}-body`}
                className="pc-input pf-textarea"
                value={texts[lang].body}
                maxLength={ALERT_BODY_MAX}
                rows={2}
                onChange={(e) => onChange({ ...texts, [lang]: { ...texts[lang], body: e.target.value } })}
              />
            </div>
          </div>
        ))}
      </div>
    </details>
  );
}
