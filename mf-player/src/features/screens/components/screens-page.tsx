import { type DayPart, SCREEN_DEFAULT_TIME_ZONE, type Screen } from '@pagecast/contracts';
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  describeError,
  FieldError,
  Input,
  Label,
  Spinner,
  toast,
  useAuth,
} from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { playReportPath, playReportQuery } from '../api/get-play-report';
import { playlistsQuery } from '../../../lib/playlists';
import { screensQuery } from '../api/list-screens';
import { usePairScreen } from '../api/pair-screen';
import { useRevokeScreen } from '../api/revoke-screen';
import { soldPlaysQuery } from '../api/get-sold-plays';
import { useUpdateScreen } from '../api/update-screen';
import { type AssignmentDraft, assignmentOf, COMMON_ZONES, draftOf, WEEKDAYS } from '../model/schedule-form';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Screens (/screens): pair a display by its code, see each screen's status, say what it plays, read its plays. */
export function ScreensPage() {
  const { t } = useTranslation();
  const { user, isLoading } = useAuth();
  if (isLoading) return <Spinner />;
  if (!user)
    return (
      <div className="pc-container pc-page">
        <h1 className="pc-page__title">{t('screens.loginRequired')}</h1>
      </div>
    );
  return (
    <div className="pc-container pc-page pc-stack">
      <h1 className="pc-page__title">{t('screens.title')}</h1>
      <PairForm />
      <ScreenList />
      <PlayReportCard />
    </div>
  );
}

function PairForm() {
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

function ScreenList() {
  const { t } = useTranslation();
  const screens = useQuery(screensQuery());
  if (screens.isLoading) return <Spinner />;
  if (screens.error) return <p role="alert">{describeError(screens.error, t, t('screens.loadFailed'))}</p>;
  if (!screens.data?.length) return <p>{t('screens.none')}</p>;
  return (
    <ul className="pc-stack" aria-label={t('screens.listLabel')}>
      {screens.data.map((s) => (
        <li key={s.id}>
          <ScreenCard screen={s} />
        </li>
      ))}
    </ul>
  );
}

function ScreenCard({ screen }: { screen: Screen }) {
  const { t, i18n } = useTranslation();
  const revoke = useRevokeScreen();
  const when = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso))
      : '—';
  return (
    <Card data-testid={`screen-${screen.id}`}>
      <CardHeader>
        <h3>
          {screen.name}{' '}
          <Badge variant={screen.online ? 'success' : 'secondary'} data-testid="screen-status">
            {screen.online ? t('screens.online') : t('screens.offline')}
          </Badge>
        </h3>
      </CardHeader>
      <CardContent>
        <dl className="pc-stack">
          <div>
            <dt>{t('screens.lastSeen')}</dt>
            <dd>{when(screen.lastSeenAt)}</dd>
          </div>
          <div>
            <dt>{t('screens.nowPlaying')}</dt>
            <dd data-testid="screen-now-playing">
              {screen.nowPlaying?.fileId
                ? t('screens.nowPlayingValue', {
                    file: screen.nowPlaying.fileId,
                    page: (screen.nowPlaying.page ?? 0) + 1,
                  })
                : '—'}
            </dd>
          </div>
          <div>
            <dt>{t('screens.appVersion')}</dt>
            <dd>{screen.appVersion ?? '—'}</dd>
          </div>
          <div>
            <dt>{t('screens.screenSize')}</dt>
            <dd>{screen.screenSize ? `${screen.screenSize.width}×${screen.screenSize.height}` : '—'}</dd>
          </div>
          <div>
            <dt>{t('screens.timeZone')}</dt>
            <dd>{screen.timeZone}</dd>
          </div>
        </dl>
        <AssignmentEditor screen={screen} />
        <Button
          variant="destructive"
          onClick={() => {
            if (window.confirm(t('screens.revokeConfirm', { name: screen.name }))) revoke.mutate(screen.id);
          }}
        >
          {t('screens.revoke')}
        </Button>
      </CardContent>
    </Card>
  );
}

function AssignmentEditor({ screen }: { screen: Screen }) {
  const { t } = useTranslation();
  const playlists = useQuery(playlistsQuery);
  const update = useUpdateScreen();
  const [draft, setDraft] = useState<AssignmentDraft>(() => draftOf(screen.assignment));
  const [error, setError] = useState<string | null>(null);
  const set = (patch: Partial<AssignmentDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setPart = (i: number, patch: Partial<DayPart>) =>
    set({ parts: draft.parts.map((p, j) => (j === i ? { ...p, ...patch } : p)) });
  const playlistSelect = (id: string, value: string, onChange: (v: string) => void, allowNone = false) => (
    <select id={id} className="pc-input" value={value} onChange={(e) => onChange(e.target.value)}>
      {allowNone || !value ? <option value="">{t('screens.nothing')}</option> : null}
      {(playlists.data ?? []).map((p) => (
        <option key={p.id} value={p.id}>
          {p.name}
        </option>
      ))}
    </select>
  );
  const save = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    update.mutate(
      { id: screen.id, body: { assignment: assignmentOf(draft) } },
      {
        onSuccess: () => toast({ title: t('screens.saved') }),
        onError: (err) => setError(describeError(err, t, t('screens.saveFailed'))),
      },
    );
  };
  const p = `assign-${screen.id}`;
  return (
    <form className="pc-stack" onSubmit={save} aria-label={t('screens.plays')}>
      <Label htmlFor={`${p}-kind`}>{t('screens.plays')}</Label>
      <select
        id={`${p}-kind`}
        className="pc-input"
        value={draft.kind}
        onChange={(e) => set({ kind: e.target.value as AssignmentDraft['kind'] })}
      >
        {(['none', 'playlist', 'file', 'schedule'] as const).map((k) => (
          <option key={k} value={k}>
            {t(`screens.kind.${k}`)}
          </option>
        ))}
      </select>
      {draft.kind === 'playlist' ? (
        <>
          <Label htmlFor={`${p}-playlist`}>{t('screens.playlist')}</Label>
          {playlistSelect(`${p}-playlist`, draft.playlistId, (v) => set({ playlistId: v }))}
        </>
      ) : null}
      {draft.kind === 'file' ? (
        <>
          <Label htmlFor={`${p}-file`}>{t('screens.fileId')}</Label>
          <Input id={`${p}-file`} value={draft.fileId} onChange={(e) => set({ fileId: e.target.value.trim() })} />
        </>
      ) : null}
      {draft.kind === 'schedule' ? (
        <fieldset className="pc-stack">
          <legend>{t('screens.dayParts')}</legend>
          {draft.parts.map((part, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: parts have no id; their order is their identity here
            <div key={i} className="pc-row" data-testid="day-part">
              {WEEKDAYS.map((d) => (
                <label key={d}>
                  <input
                    type="checkbox"
                    checked={part.days.includes(d)}
                    onChange={(e) =>
                      setPart(i, {
                        days: e.target.checked ? [...part.days, d].sort() : part.days.filter((x) => x !== d),
                      })
                    }
                  />
                  {t(`screens.weekday.${d}`)}
                </label>
              ))}
              <Label htmlFor={`${p}-start-${i}`}>{t('screens.start')}</Label>
              <Input
                id={`${p}-start-${i}`}
                type="time"
                value={part.start}
                onChange={(e) => setPart(i, { start: e.target.value })}
              />
              <Label htmlFor={`${p}-end-${i}`}>{t('screens.end')}</Label>
              <Input
                id={`${p}-end-${i}`}
                type="time"
                value={part.end}
                onChange={(e) => setPart(i, { end: e.target.value })}
              />
              <Label htmlFor={`${p}-pl-${i}`}>{t('screens.playlist')}</Label>
              {playlistSelect(`${p}-pl-${i}`, part.playlistId, (v) => setPart(i, { playlistId: v }))}
              <Button
                type="button"
                variant="ghost"
                onClick={() => set({ parts: draft.parts.filter((_, j) => j !== i) })}
              >
                {t('screens.removePart')}
              </Button>
            </div>
          ))}
          <Button
            type="button"
            variant="outline"
            onClick={() =>
              set({
                parts: [
                  ...draft.parts,
                  { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', playlistId: playlists.data?.[0]?.id ?? '' },
                ],
              })
            }
          >
            {t('screens.addPart')}
          </Button>
          <Label htmlFor={`${p}-default`}>{t('screens.defaultPlaylist')}</Label>
          {playlistSelect(`${p}-default`, draft.defaultPlaylistId, (v) => set({ defaultPlaylistId: v }), true)}
        </fieldset>
      ) : null}
      <FieldError>{error}</FieldError>
      <Button type="submit" disabled={update.isPending}>
        {t('screens.save')}
      </Button>
    </form>
  );
}

function PlayReportCard() {
  const { t } = useTranslation();
  const [from, setFrom] = useState(() => isoDay(new Date(Date.now() - 6 * 86_400_000)));
  const [to, setTo] = useState(() => isoDay(new Date(Date.now() + 86_400_000)));
  const report = useQuery(playReportQuery(from, to));
  return (
    <Card>
      <CardHeader>
        <h2>{t('screens.reportTitle')}</h2>
      </CardHeader>
      <CardContent>
        <div className="pc-row">
          <Label htmlFor="plays-from">{t('screens.from')}</Label>
          <Input id="plays-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          <Label htmlFor="plays-to">{t('screens.to')}</Label>
          <Input id="plays-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
          <a className="pc-btn pc-btn--outline pc-btn--sm" href={playReportPath(from, to, 'csv')} download>
            {t('screens.exportCsv')}
          </a>
        </div>
        {report.error ? <p role="alert">{describeError(report.error, t, t('screens.loadFailed'))}</p> : null}
        <table className="pc-table" data-testid="play-report">
          <thead>
            <tr>
              <th>{t('screens.day')}</th>
              <th>{t('screens.screen')}</th>
              <th>{t('screens.file')}</th>
              <th>{t('screens.playCount')}</th>
              <th>{t('screens.seconds')}</th>
            </tr>
          </thead>
          <tbody>
            {(report.data ?? []).map((r) => (
              <tr key={`${r.day}-${r.screenId}-${r.fileId}`}>
                <td>{r.day}</td>
                <td>{r.screenName}</td>
                <td>{r.fileId}</td>
                <td data-testid="play-count">{r.plays}</td>
                <td>{Math.round(r.seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <SoldPlays from={from} to={to} />
      </CardContent>
    </Card>
  );
}

/** The seller's side of proof of play: their sold content's plays on buyers' screens, per day and file. */
function SoldPlays({ from, to }: { from: string; to: string }) {
  const { t } = useTranslation();
  const sold = useQuery(soldPlaysQuery(from, to));
  return (
    <section aria-labelledby="sold-plays-title" data-testid="sold-plays">
      <h3 id="sold-plays-title">{t('screens.soldTitle')}</h3>
      <p className="pc-muted">{t('screens.soldHelp')}</p>
      {sold.error ? <p role="alert">{describeError(sold.error, t, t('screens.loadFailed'))}</p> : null}
      {sold.data && sold.data.length === 0 ? <p data-testid="sold-plays-empty">{t('screens.soldEmpty')}</p> : null}
      {sold.data?.length ? (
        <table className="pc-table">
          <thead>
            <tr>
              <th>{t('screens.day')}</th>
              <th>{t('screens.file')}</th>
              <th>{t('screens.playCount')}</th>
            </tr>
          </thead>
          <tbody>
            {sold.data.map((r) => (
              <tr key={`${r.day}-${r.fileId}`}>
                <td>{r.day}</td>
                <td>{r.fileId}</td>
                <td data-testid="sold-play-count">{r.plays}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
