import { IconArrowLeft, Spinner } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';
import { ProposalsLink } from '../../../components/approval/proposals-link';
import { MembersOnly } from '../../../components/members-only/members-only';
import { fleetScreensQuery, groupsQuery } from '../api/fleet-api';
import { AgendaSection } from './agenda-section';
import { AlertRulesSection } from './alert-rules-section';
import { BulkSection } from './bulk-section';
import { GroupsSection } from './groups-section';
import { LogSection } from './log-section';
import { TakeoverSection } from './takeover-section';
import './fleet.css';

/** One screen is worded as one ("your screen"), not as a count ("your 1 screens"); none says what to do first. */
export const subtitleKey = (count: number) =>
  count === 0 ? 'fleet.subtitleNone' : count === 1 ? 'fleet.subtitleOne' : 'fleet.subtitle';

/** Fleet control (/screens/fleet): groups, one change for many screens, takeovers, the week ahead, disaster alerts. */
export function FleetPage() {
  const { t } = useTranslation();
  return (
    <MembersOnly loggedOutTitle={t('screens.loginRequired')}>
      <FleetView />
    </MembersOnly>
  );
}

function FleetView() {
  const { t } = useTranslation();
  const screens = useQuery(fleetScreensQuery);
  const groups = useQuery(groupsQuery);
  const screenList = screens.data ?? [];
  const groupList = groups.data ?? [];
  return (
    <div className="pc-container pc-page pf-page">
      <div className="pf-page__head">
        <Link to="/screens" className="pf-back">
          <IconArrowLeft />
          {t('fleet.back')}
        </Link>
        <h1 className="pc-page__title">{t('fleet.title')}</h1>
        <p className="pc-page__subtitle">{t(subtitleKey(screenList.length), { count: screenList.length })}</p>
        <Link to="/screens/health" data-testid="health-link">
          {t('screens.health.link')}
        </Link>
        <ProposalsLink />
      </div>
      {screens.isLoading || groups.isLoading ? <Spinner /> : null}
      <TakeoverSection groups={groupList} />
      <GroupsSection groups={groupList} screens={screenList} />
      <BulkSection groups={groupList} screens={screenList} />
      <AgendaSection groups={groupList} screens={screenList} />
      <AlertRulesSection />
      <LogSection />
    </div>
  );
}
