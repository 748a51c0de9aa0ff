import { SCREEN_DEFAULT_TIME_ZONE } from '@pagecast/contracts';
import { Button, Card, CardContent, CardHeader, describeError, FieldError, Input, Label, toast } from '@pagecast/ui';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useSearchParams } from '@pagecast/router';
import { usePairScreen } from '../api/pair-screen';
import { COMMON_ZONES } from '../model/schedule-form';

/** Pairs a display by the code it shows (prefilled from ?code= when the display's QR code was scanned). */
export function PairForm() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const [code, setCode] = useState(search.get('code') ?? '');
  const [name, setName] = useState('');
  const [timeZone, setTimeZone] = useState(SCREEN_DEFAULT_TIME_ZONE);
  const [error, setError] = useState<string | null>(null);
  const pair = usePairScreen();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    pair.mutate(
      { code, name, timeZone },
      {
        onSuccess: (screen) => {
          toast({ title: t('screens.paired', { name: screen.name }) });
          setCode('');
          setName('');
        },
        onError: (err) => setError(describeError(err, t, t('screens.pairFailed'))),
      },
    );
  };
  return (
    <Card>
      <CardHeader>
        <h2>{t('screens.pairTitle')}</h2>
        <p>{t('screens.pairHelp')}</p>
      </CardHeader>
      <CardContent>
        <form className="pc-stack" onSubmit={submit} aria-label={t('screens.pairTitle')}>
          <Label htmlFor="screen-code">{t('screens.code')}</Label>
          <Input
            id="screen-code"
            value={code}
            onChange={(e) => setCode(e.target.value.toUpperCase())}
            autoComplete="off"
            maxLength={6}
            required
          />
          <Label htmlFor="screen-name">{t('screens.name')}</Label>
          <Input id="screen-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required />
          <Label htmlFor="screen-zone">{t('screens.timeZone')}</Label>
          <Input
            id="screen-zone"
            list="screen-zones"
            value={timeZone}
            onChange={(e) => setTimeZone(e.target.value)}
            required
          />
          <datalist id="screen-zones">
            {COMMON_ZONES.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <FieldError>{error}</FieldError>
          <Button type="submit" disabled={pair.isPending}>
            {t('screens.pair')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
