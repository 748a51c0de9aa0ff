import { SCREEN_DEFAULT_TIME_ZONE } from '@pagecast/contracts';
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  describeError,
  FieldError,
  Input,
  Label,
  toast,
} from '@pagecast/ui';
import { type FormEvent, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { useSearchParams } from '@pagecast/router';
import { usePairScreen } from '../api/pair-screen';
import { PairingAddress } from './pairing-address';
import { TimeZonePicker } from './time-zone-picker';

/**
 * Pairs a display: the address to open on it (and its QR code), then the code it shows (prefilled from ?code= when
 * the display's QR code was scanned), a name and a time zone from the list.
 */
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
    <Card className="ps-pair" data-testid="pair-form">
      <CardHeader>
        <CardTitle level={2}>{t('screens.pairTitle')}</CardTitle>
        <CardDescription>{t('screens.board.pairIntro')}</CardDescription>
      </CardHeader>
      <CardContent className="ps-pair__body">
        <PairingAddress />
        <form className="ps-pair__form" onSubmit={submit} aria-label={t('screens.pairTitle')}>
          <p className="ps-step">{t('screens.board.step2')}</p>
          <div className="ps-field">
            <Label htmlFor="screen-code">{t('screens.code')}</Label>
            <Input
              id="screen-code"
              value={code}
              onChange={(e) => setCode(e.target.value.toUpperCase())}
              autoComplete="off"
              maxLength={6}
              className="ps-code-input"
              required
            />
          </div>
          <div className="ps-field">
            <Label htmlFor="screen-name">{t('screens.name')}</Label>
            <Input id="screen-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required />
          </div>
          <TimeZonePicker id="screen-zone" value={timeZone} onChange={setTimeZone} />
          <FieldError>{error}</FieldError>
          <div>
            <Button type="submit" disabled={pair.isPending}>
              {t('screens.pair')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
