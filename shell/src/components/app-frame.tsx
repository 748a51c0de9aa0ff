import { LanguageSwitcher } from '@pagecast/i18n';
import { useAuth } from '@pagecast/ui';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { Brand } from './brand';
import { UserMenu } from './user-menu';

const navItems = [
  { to: '/', key: 'nav.dashboard', end: true },
  { to: '/files', key: 'nav.files' },
  { to: '/playbook', key: 'nav.playlist' },
  { to: '/marketplace', key: 'nav.marketplace' },
  { to: '/contact', key: 'nav.contact' },
];

/** Header of signed-in pages (spec point 2): brand, navigation, points balance, user menu. */
export function Header() {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
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
              <span className="pc-points-pill" title={t('nav.balance')} data-testid="points-balance">
                {t('common.pointsShort', { points: (user.points ?? 0).toLocaleString(i18n.language) })}
              </span>
              <UserMenu user={user} />
            </>
          ) : null}
        </div>
      </div>
    </header>
  );
}

export function AppFrame() {
  return (
    <>
      <Header />
      <main>
        <Outlet />
      </main>
    </>
  );
}

/** Frame of the signed-out account screens: brand and language choice only. */
export function PublicFrame() {
  return (
    <>
      <header className="pc-header">
        <div className="pc-container pc-header__inner">
          <Brand />
          <div className="pc-header__end">
            <LanguageSwitcher />
          </div>
        </div>
      </header>
      <main>
        <Outlet />
      </main>
    </>
  );
}
