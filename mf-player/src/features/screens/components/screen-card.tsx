import {
  type ExpectedShow,
  type Playing,
  SCREEN_OFFLINE_AFTER_SECONDS,
  type Screen,
  type ScreenHealth,
} from '@pagecast/contracts';
import { Badge, Button, Card, CardContent, CardFooter, CardHeader, CardTitle } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { useMay } from '../../../lib/use-may';
import { useRevokeScreen } from '../api/revoke-screen';
import { nowAndNext, zoneOffset } from '../model/now-next';
import type { Titles } from '../model/titles';
import { HealthBadge } from '../../../lib/health/components/health-badge';
import { HealthSummary } from '../../../lib/health/components/health-summary';
import { describeExpected, healthNote } from '../../../lib/health/model/health-text';
import { AssignmentEditor } from './assignment-editor';
import { ScreenSettings } from './screen-settings';

const DAY_MS = 86_400_000;

/**
 * One screen: its status (live), its local time (ticking), what its display reports it shows, what its schedule plays
 * now and next on its own clock (the resolver the display runs), then what it plays and unpairing (each only for a
 * role that may: screens.assign, screens.manage). One status: its
 * health state in the header with the health summary (reason, thumbnail, what it shows) once its health is read;
 * until then (or from an older server) the heartbeat's online/offline and the reported page.
 */
export function ScreenCard({
  screen,
  now,
  titles,
  health,
  highlighted = false,
}: {
  screen: Screen;
  now: number;
  titles: Titles;
  /** its health from GET /api/screens/health (undefined while loading or from an older server) */
  health?: ScreenHealth;
  highlighted?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const revoke = useRevokeScreen();
  // PUT /api/screens/:id (what it plays, its settings) is screens.assign; unpairing is screens.manage
  const mayAssign = useMay('screens.assign');
  const mayUnpair = useMay('screens.manage');
  const lang = i18n.language;
  // offline once its last report is older than a screen stays online (no event says so: nothing arrives)
  const online =
    screen.online &&
    screen.lastSeenAt !== null &&
    now - Date.parse(screen.lastSeenAt) <= SCREEN_OFFLINE_AFTER_SECONDS * 1000 + 5000;
  const localTime = new Intl.DateTimeFormat(lang, {
    timeZone: screen.timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(now);
  const unassigned = health ? healthNote(health) === 'unassigned' : screen.assignment.kind === 'none';
  return (
    <Card className={highlighted ? 'ps-screen ps-screen--highlight' : 'ps-screen'} data-testid={`screen-${screen.id}`}>
      <CardHeader className="ps-screen__head">
        <CardTitle level={3}>{screen.name}</CardTitle>
        {health ? (
          <HealthBadge state={health.state} note={healthNote(health)} />
        ) : (
          <Badge variant={online ? 'success' : 'secondary'} data-testid="screen-status">
            {online ? t('screens.online') : t('screens.offline')}
          </Badge>
        )}
      </CardHeader>
      <CardContent className="pc-stack">
        {health ? (
          <HealthSummary health={health} now={now} titles={titles} incidentsOpen={highlighted} badge={false} />
        ) : null}
        <p className="ps-clock">
          <span className="pc-muted">{t('screens.board.localTime')}</span>{' '}
          <time data-testid="screen-local-time">{localTime}</time>{' '}
          <span className="pc-muted pl-small">
            (UTC{zoneOffset(screen.timeZone, now)} {screen.timeZone.replaceAll('_', ' ')})
          </span>
        </p>
        <ScreenFacts screen={screen} now={now} titles={titles} health={health} online={online} />
        {mayAssign ? (
          <>
            {/* nothing to play yet: the way to give it something is open */}
            <details className="ps-edit" open={unassigned} data-testid="screen-change">
              <summary>{t('screens.board.change')}</summary>
              <AssignmentEditor screen={screen} />
            </details>
            <details className="ps-edit" data-testid="screen-settings-open">
              <summary>{t('screens.health.settings.title')}</summary>
              <ScreenSettings screen={screen} />
            </details>
          </>
        ) : null}
      </CardContent>
      {mayUnpair ? (
        <CardFooter>
          <Button
            variant="destructive"
            size="sm"
            data-testid="screen-unpair"
            onClick={() => {
              if (window.confirm(t('screens.revokeConfirm', { name: screen.name }))) revoke.mutate(screen.id);
            }}
          >
            {t('screens.revoke')}
          </Button>
        </CardFooter>
      ) : null}
    </Card>
  );
}

/**
 * What the card says of the screen: what its display reports (until its health is read), what its own assignment
 * plays (see PlanFact), what it shows instead when its groups or a takeover decide, when it was last seen, its size.
 */
function ScreenFacts({
  screen,
  now,
  titles,
  health,
  online,
}: {
  screen: Screen;
  now: number;
  titles: Titles;
  health?: ScreenHealth;
  online: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const zoned = (opts: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(lang, { timeZone: screen.timeZone, ...opts });
  const when = (iso: string | null) =>
    iso ? new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso)) : null;
  /** a wall-clock time on the screen's clock; with its weekday when it is not within the next day */
  const at = (ms: number) =>
    (ms - now < DAY_MS && zoned({ day: 'numeric' }).format(ms) === zoned({ day: 'numeric' }).format(now)
      ? zoned({ hour: '2-digit', minute: '2-digit' })
      : zoned({ weekday: 'short', hour: '2-digit', minute: '2-digit' })
    ).format(ms);
  const what = (p: Playing) =>
    p.kind === 'playlist'
      ? (titles.playlist(p.playlistId) ?? t('screens.board.unknownPlaylist'))
      : p.kind === 'file'
        ? (titles.file(p.fileId) ?? t('screens.board.unknownFile'))
        : t('screens.board.nothingPlanned');
  const plan = nowAndNext(screen.assignment, screen.timeZone, now);
  const reported = screen.nowPlaying?.fileId && online ? screen.nowPlaying : null;
  const lastSeen = when(screen.lastSeenAt);
  // closed by its hours it shows nothing: its plan is what it plays once open, not what it plays "now"
  const closed = health?.state === 'closed';
  return (
    <dl className="ps-facts">
      {health ? null : (
        <div>
          <dt>{t('screens.nowPlaying')}</dt>
          <dd data-testid="screen-now-playing">
            {reported
              ? t('screens.board.filePage', {
                  title: titles.file(reported.fileId) ?? t('screens.board.unknownFile'),
                  page: (reported.page ?? 0) + 1,
                })
              : online
                ? t('screens.board.showsNothing')
                : t('screens.board.notReporting')}
          </dd>
        </div>
      )}
      <PlanFact screen={screen} closed={closed} plan={plan} what={what} at={at} />
      {health && !closed && !sameShow(plan.now, health.expected) ? (
        // what the resolver says it should show now, when its groups or a takeover give something else
        <div>
          <dt>{t('screens.board.insteadNow')}</dt>
          <dd data-testid="screen-instead-now">{describeExpected(t, health.expected, titles)}</dd>
        </div>
      ) : null}
      <div>
        <dt>{t('screens.lastSeen')}</dt>
        <dd data-testid="screen-last-seen">{lastSeen ?? t('screens.board.never')}</dd>
      </div>
      <div>
        <dt>{t('screens.screenSize')}</dt>
        <dd>
          {screen.screenSize ? `${screen.screenSize.width} × ${screen.screenSize.height}` : '—'}
          {screen.appVersion ? <span className="pc-muted pl-small"> · v{screen.appVersion}</span> : null}
        </dd>
      </div>
    </dl>
  );
}

/**
 * What the screen's own assignment plays: a schedule's part now and next (on the screen's clock), else the playlist
 * or file; while closed by its opening hours, what it plays once open.
 */
function PlanFact({
  screen,
  closed,
  plan,
  what,
  at,
}: {
  screen: Screen;
  closed: boolean;
  plan: ReturnType<typeof nowAndNext>;
  what: (p: Playing) => string;
  at: (ms: number) => string;
}) {
  const { t } = useTranslation();
  if (closed)
    return (
      <div>
        <dt>{t('screens.board.whenOpen')}</dt>
        <dd data-testid="screen-schedule-now">
          {screen.assignment.kind === 'none' ? t('screens.board.nothingPlanned') : what(plan.now)}
        </dd>
      </div>
    );
  if (screen.assignment.kind !== 'schedule')
    return (
      <div>
        <dt>{t('screens.plays')}</dt>
        <dd data-testid="screen-schedule-now">
          {screen.assignment.kind === 'none' ? t('screens.board.nothingPlanned') : what(plan.now)}
        </dd>
      </div>
    );
  return (
    <div>
      <dt>{t('screens.board.schedule')}</dt>
      <dd data-testid="screen-schedule-now">
        {plan.until === null
          ? t('screens.board.nowAlways', { what: what(plan.now) })
          : t('screens.board.nowUntil', { what: what(plan.now), time: at(plan.until) })}
        {plan.next && plan.until !== null ? (
          <>
            <br />
            <span data-testid="screen-schedule-next">
              {t('screens.board.next', { what: what(plan.next), time: at(plan.until) })}
            </span>
          </>
        ) : null}
      </dd>
    </div>
  );
}

/** Whether the screen's own plan now is what the resolver (its groups and takeovers included) says it should show. */
function sameShow(own: Playing, expected: ExpectedShow): boolean {
  if (own.kind === 'playlist') return expected.kind === 'playlist' && expected.playlistId === own.playlistId;
  if (own.kind === 'file') return expected.kind === 'file' && expected.fileId === own.fileId;
  return expected.kind === 'none';
}
