import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';
import { ProposalsLink } from '../../../components/approval/proposals-link';
import { MembersOnly } from '../../../components/members-only/members-only';
import { useMay } from '../../../lib/use-may';
import { PairForm } from './pair-form';
import { PlayReportCard } from './play-report-card';
import { ScreenList } from './screen-list';
import '../../../components/layout/layout.css';
import './screens.css';

/** Screens (/screens): pair a display by its code, see each screen's status, say what it plays, read its plays. */
export function ScreensPage() {
  const { t } = useTranslation();
  return (
    <MembersOnly loggedOutTitle={t('screens.loginRequired')}>
      <ScreensView />
    </MembersOnly>
  );
}

function ScreensView() {
  const { t } = useTranslation();
  // pairing a display is the fleet's (owner, admin): the others see their screens and no pairing form
  const mayPair = useMay('screens.manage');
  return (
    <div className="pc-container pc-page pl-page">
      <div className="pl-page__head">
        <h1 className="pc-page__title">{t('screens.title')}</h1>
        <p className="pc-page__subtitle">{t('screens.board.subtitle')}</p>
        <Link to="/screens/fleet" data-testid="fleet-link">
          {t('fleet.link')}
        </Link>
        <Link to="/screens/health" data-testid="health-link">
          {t('screens.health.link')}
        </Link>
        <ProposalsLink />
      </div>
      <ScreenList />
      {mayPair ? <PairForm /> : null}
      <PlayReportCard />
    </div>
  );
}
