import { LanguageSwitcher, useTranslation } from '@pagecast/i18n';
import { IconClose, IconMenu, pointsSummaryQuery, useAuth } from '@pagecast/ui';
import { useQuery } from '@tanstack/react-query';
import { Link, NavLink, useLocation } from '@pagecast/router';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Brand } from '../../../components/brand';
import { UserMenu } from './user-menu';

const navItems = [
  { to: '/', key: 'nav.dashboard', end: true },
  { to: '/files', key: 'nav.files' },
  { to: '/playbook', key: 'nav.playlist' },
  // the Screens page and fleet control are two places: the first is not lit on the second
  { to: '/screens', key: 'nav.screens', end: true },
  { to: '/screens/fleet', key: 'nav.fleet' },
  { to: '/marketplace', key: 'nav.marketplace' },
  { to: '/contact', key: 'nav.contact' },
];

/**
 * Header of signed-in pages (spec point 2): brand, navigation, points balance, user menu. On a phone the navigation
 * folds behind a menu button, so the header stays one row with the balance in it. `workspaceSwitcher`: the app's
 * choice of workspace (a feature of its own, so the frame hands it in), before the balance on a wide screen and at
 * the top of the folded menu on a phone, where the row has no room for it.
 */
export function Header({ workspaceSwitcher }: { workspaceSwitcher?: (place: 'bar' | 'menu') => ReactNode } = {}) {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const summary = useQuery({ ...pointsSummaryQuery, enabled: Boolean(user) });
  const balance = (summary.data?.balance ?? user?.points ?? 0).toLocaleString(i18n.language);
  const pointsShort = t('common.pointsShort', { points: balance });
  const [menuOpen, setMenuOpen] = useState(false);
  const navId = useId();
  const { pathname } = useLocation();
  // a page opened from the menu closes it
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not a value read
  useEffect(() => setMenuOpen(false), [pathname]);
  return (
    <header className="pc-header" data-testid="app-header">
      <div className="pc-container pc-header__inner">
        <Brand />
        <nav
          id={navId}
          className="pc-nav"
          aria-label={t('nav.mainNavigation')}
          data-open={menuOpen}
          data-testid="main-nav"
        >
          {user ? workspaceSwitcher?.('menu') : null}
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
              {workspaceSwitcher?.('bar')}
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
          <button
            type="button"
            className="pc-nav-toggle"
            aria-expanded={menuOpen}
            aria-controls={navId}
            aria-label={t('nav.menu')}
            data-testid="nav-toggle"
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <IconClose size={22} /> : <IconMenu size={22} />}
          </button>
        </div>
      </div>
    </header>
  );
}
