import { LanguageSwitcher, useTranslation } from '@pagecast/i18n';
import { Outlet } from '@pagecast/router';
import type { MouseEvent } from 'react';
import { Brand } from '../components/brand';
import { Header } from '../features/header/components/header';
import { WorkspaceKeeper } from '../features/workspace/components/workspace-keeper';
import { WorkspaceSwitcher } from '../features/workspace/components/workspace-switcher';

const MAIN_ID = 'main-content';

/**
 * The first stop of the Tab key (WCAG 2.4.1): it moves the focus past the header to the page. Focus is moved by
 * hand rather than by the #fragment alone, which would enter the address and leave the focus where it was in some
 * browsers.
 */
function SkipLink() {
  const { t } = useTranslation();
  const skip = (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    document.getElementById(MAIN_ID)?.focus();
  };
  return (
    <a className="pc-skip-link" href={`#${MAIN_ID}`} onClick={skip} data-testid="skip-link">
      {t('nav.skipToContent')}
    </a>
  );
}

export function AppFrame() {
  return (
    <>
      <SkipLink />
      <WorkspaceKeeper />
      <Header workspaceSwitcher={(place) => <WorkspaceSwitcher place={place} />} />
      <main id={MAIN_ID} tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}

/** Frame of the signed-out account screens: brand and language choice only. */
export function PublicFrame() {
  return (
    <>
      <SkipLink />
      <header className="pc-header">
        <div className="pc-container pc-header__inner">
          <Brand />
          <div className="pc-header__end">
            <LanguageSwitcher />
          </div>
        </div>
      </header>
      <main id={MAIN_ID} tabIndex={-1}>
        <Outlet />
      </main>
    </>
  );
}
