import { LanguageSwitcher } from '@pagecast/i18n';
import { useAuth } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { Brand } from '../../../components/brand';
import { pointsSummaryQuery } from '../api/get-points-summary';
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
                aria-label={`${t('nav.balance')}: ${t('common.points', { points: balance })}`}
                data-testid="points-balance"
                style={{ textDecoration: 'none' }}
              >
                {t('common.pointsShort', { points: balance })}
              </Link>
              <UserMenu user={user} />
            </>
          ) : null}
        </div>
      </div>
    </header>
  );
}
