import { LanguageSwitcher, useTranslation } from '@pagecast/i18n';
import { pointsSummaryQuery, useAuth } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { Link, NavLink } from '@pagecast/router';
import { Brand } from '../../../components/brand';
import { UserMenu } from './user-menu';

const navItems = [
  { to: '/', key: 'nav.dashboard', end: true },
  { to: '/files', key: 'nav.files' },
  { to: '/playbook', key: 'nav.playlist' },
  { to: '/screens', key: 'nav.screens' },
  { to: '/marketplace', key: 'nav.marketplace' },
  { to: '/contact', key: 'nav.contact' },
];

/** Header of signed-in pages (spec point 2): brand, navigation, points balance, user menu. */
export function Header() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const summary = useQuery({ ...pointsSummaryQuery, enabled: Boolean(user) });
  const balance = (summary.data?.balance ?? user?.points ?? 0).toLocaleString(i18n.language);
  const pointsShort = t('common.pointsShort', { points: balance });
  return (
    <header className="pc-header" data-testid="app-header">
      <div className="pc-container pc-header__inner">
        <Brand />
        <nav className="pc-nav" aria-label={t('nav.mainNavigation')}>
          {navItems.map((item) => (
            <NavLink key={item.to} to={item.to} end={item.end} className="pc-nav__link">
              {t(item.key)}
            </NavLink>
          ))}
        </nav>
        <div className="pc-header__end">
          <LanguageSwitcher />
          {user ? (
            <>
              <Link
                to="/points"
                className="pc-points-pill"
                title={t('nav.balance')}
                // the name starts with the visible text, so voice control users can say what they see (WCAG 2.5.3)
                aria-label={`${pointsShort} (${t('nav.balance')})`}
                data-testid="points-balance"
              >
                {pointsShort}
              </Link>
              <UserMenu user={user} />
            </>
          ) : null}
        </div>
      </div>
    </header>
  );
}
