import { LanguageSwitcher } from '@pagecast/i18n';
import { Outlet } from '@pagecast/router';
import { Header } from '../features/header/components/header';
import { Brand } from '../components/brand';

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
