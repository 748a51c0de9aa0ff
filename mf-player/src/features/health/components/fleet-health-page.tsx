import type { FleetHealthCounts, FleetHealthQuery, ScreenHealth } from '@pagecast/contracts';
import { Button, describeError, IconArrowLeft, Input, Label, Spinner } from '@pagecast/ui';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { Link, useSearchParams } from '@pagecast/router';
import { HealthBadge } from '../../../lib/health/components/health-badge';
import { MembersOnly } from '../../../components/members-only/members-only';
import { HealthSummary } from '../../../lib/health/components/health-summary';
import { allHealthQuery, fleetHealthQuery, groupsQuery } from '../../../lib/health/api/health-api';
import { healthNote, healthReason } from '../../../lib/health/model/health-text';
import { useHealthLive } from '../../../lib/health/api/use-health-live';
import { useTitles } from '../../../lib/titles';
import { useNow } from '../../../lib/use-now';
import '../../../components/layout/layout.css';
import '../../../lib/health/components/health.css';

type StateFilter = NonNullable<FleetHealthQuery['state']>;
/** the filter buttons, in this order ('' = all) */
export const STATE_FILTERS: ReadonlyArray<StateFilter> = [
  'online',
  'offline',
  'closed',
  'broken',
  'frozen',
  'wrong',
  'ok',
];
const isStateFilter = (s: string | null): s is StateFilter => STATE_FILTERS.includes(s as StateFilter);
const SEARCH_WAIT_MS = 300;

/**
 * Fleet health (/screens/health): counts per state as filter buttons, a group filter and a name search,
 * the paged list from GET /api/screens/health ("more" reads the next page), live. `?state=` preselects a filter
 * (the alert e-mails link here), `?screen=<id>` opens that screen with its incident log.
 */
export function FleetHealthPage() {
  const { t } = useTranslation();
  return (
    <MembersOnly loggedOutTitle={t('screens.loginRequired')}>
      <FleetHealthView />
    </MembersOnly>
  );
}

export function FleetHealthView() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const stateParam = params.get('state');
  const state = isStateFilter(stateParam) ? stateParam : undefined;
  const groupId = params.get('group') ?? undefined;
  const q = params.get('q') ?? '';
  const openId = params.get('screen');
  const [search, setSearch] = useState(q);
  const now = useNow();
  const titles = useTitles();
  const groups = useQuery(groupsQuery);
  useHealthLive();
  const set = useCallback(
    (patch: Record<string, string | undefined>) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [k, v] of Object.entries(patch)) {
            if (v) next.set(k, v);
            else next.delete(k);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  // the name search follows typing, once it pauses
  useEffect(() => {
    if (search.trim() === q) return;
    const timer = setTimeout(() => set({ q: search.trim() || undefined }), SEARCH_WAIT_MS);
    return () => clearTimeout(timer);
  }, [search, q, set]);
  const list = useInfiniteQuery(fleetHealthQuery({ state, groupId, q: q || undefined }));
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const counts: FleetHealthCounts | undefined = list.data?.pages[0]?.counts;
  const total = counts ? (state ? counts[state] : counts.total) : 0;
  // a screen named by the link (an alert e-mail) that is not in the pages read: found through the whole list
  const missing = openId !== null && list.isSuccess && !items.some((i) => i.screenId === openId);
  const all = useQuery({ ...allHealthQuery(), enabled: missing });
  const pinned = missing ? all.data?.get(openId ?? '') : undefined;
  return (
    <div className="pc-container pc-page pl-page">
      <div className="pl-page__head">
        <Link to="/screens" className="ph-back">
          <IconArrowLeft />
          {t('screens.health.fleet.back')}
        </Link>
        <h1 className="pc-page__title">{t('screens.health.fleet.title')}</h1>
        <p className="pc-page__subtitle">{t('screens.health.fleet.subtitle')}</p>
      </div>
      <HealthCounts counts={counts} state={state} onState={(next) => set({ state: next })} />
      <HealthFilters
        groups={groups.data ?? []}
        groupId={groupId}
        onGroup={(group) => set({ group })}
        search={search}
        onSearch={setSearch}
      />
      {list.isLoading ? <Spinner /> : null}
      {list.error ? <p role="alert">{describeError(list.error, t, t('screens.loadFailed'))}</p> : null}
      {pinned ? (
        <ul className="ph-list" aria-label={pinned.name}>
          <HealthRow health={pinned} now={now} titles={titles} open onToggle={() => set({ screen: undefined })} />
        </ul>
      ) : null}
      {list.isSuccess && items.length === 0 ? <p className="pl-empty">{t('screens.health.fleet.none')}</p> : null}
      {items.length ? (
        <>
          <p className="pc-muted pl-small" data-testid="health-shown">
            {t('screens.health.fleet.shown', { shown: items.length, count: total })}
          </p>
          <ul className="ph-list" data-testid="health-list">
            {items.map((h) => (
              <HealthRow
                key={h.screenId}
                health={h}
                now={now}
                titles={titles}
                open={openId === h.screenId}
                onToggle={(open) => set({ screen: open ? h.screenId : undefined })}
              />
            ))}
          </ul>
        </>
      ) : null}
      {list.hasNextPage ? (
        <div>
          <Button
            variant="outline"
            loading={list.isFetchingNextPage}
            onClick={() => void list.fetchNextPage()}
            data-testid="health-more"
          >
            {t('screens.health.fleet.more')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** The screens per state, each a filter (pressed: the list shows that state only; pressed again: all). */
function HealthCounts({
  counts,
  state,
  onState,
}: {
  counts: FleetHealthCounts | undefined;
  state: StateFilter | undefined;
  onState: (state: StateFilter | undefined) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="ph-counts" aria-label={t('screens.health.fleet.counts')} data-testid="health-counts">
      <CountButton
        label={t('screens.health.fleet.all')}
        count={counts?.total}
        pressed={!state}
        onClick={() => onState(undefined)}
        testId="health-count-all"
      />
      {STATE_FILTERS.map((s) => (
        <CountButton
          key={s}
          label={t(`screens.health.state.${s}`)}
          count={counts?.[s]}
          pressed={state === s}
          onClick={() => onState(state === s ? undefined : s)}
          testId={`health-count-${s}`}
          state={s}
        />
      ))}
    </fieldset>
  );
}

/** The list narrowed to a group, and by a part of the screens' names (sent once typing pauses). */
function HealthFilters({
  groups,
  groupId,
  onGroup,
  search,
  onSearch,
}: {
  groups: ReadonlyArray<{ id: string; name: string }>;
  groupId: string | undefined;
  onGroup: (groupId: string | undefined) => void;
  search: string;
  onSearch: (search: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="ph-filters">
      <div className="pc-field">
        <Label htmlFor="health-group">{t('screens.health.fleet.group')}</Label>
        <select
          id="health-group"
          className="pc-select"
          value={groupId ?? ''}
          onChange={(e) => onGroup(e.target.value || undefined)}
        >
          <option value="">{t('screens.health.fleet.allGroups')}</option>
          {groups.map((g) => (
            <option key={g.id} value={g.id}>
              {g.name}
            </option>
          ))}
        </select>
      </div>
      <div className="pc-field">
        <Label htmlFor="health-search">{t('screens.health.fleet.search')}</Label>
        <Input
          id="health-search"
          type="search"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          maxLength={100}
        />
      </div>
    </div>
  );
}

function CountButton({
  label,
  count,
  pressed,
  onClick,
  testId,
  state,
}: {
  label: string;
  count: number | undefined;
  pressed: boolean;
  onClick: () => void;
  testId: string;
  state?: StateFilter;
}) {
  return (
    <button
      type="button"
      className="ph-count"
      aria-pressed={pressed}
      onClick={onClick}
      data-testid={testId}
      data-state={state}
      data-zero={count === 0 ? 'true' : undefined}
    >
      <span className="ph-count__n">{count ?? '–'}</span>
      <span className="ph-count__label">{label}</span>
    </button>
  );
}

function HealthRow({
  health,
  now,
  titles,
  open,
  onToggle,
}: {
  health: ScreenHealth;
  now: number;
  titles: ReturnType<typeof useTitles>;
  open: boolean;
  onToggle: (open: boolean) => void;
}) {
  const { t, i18n } = useTranslation();
  const time = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));
  return (
    <li
      className={open ? 'ph-row ph-row--open' : 'ph-row'}
      data-testid={`health-row-${health.screenId}`}
      data-state={health.state}
    >
      <button type="button" className="ph-row__head" aria-expanded={open} onClick={() => onToggle(!open)}>
        <strong className="ph-row__name">{health.name}</strong>
        <HealthBadge state={health.state} note={healthNote(health)} />
        {open ? null : <span className="ph-row__reason pc-muted">{healthReason(t, health, now, titles, time)}</span>}
      </button>
      {open ? <HealthSummary health={health} now={now} titles={titles} incidentsOpen /> : null}
    </li>
  );
}
