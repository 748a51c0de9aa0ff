import { avatarInitials, type SessionUser, useWorkspaceCan } from '@pagecast/ui';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '@pagecast/i18n';
import { Link } from '@pagecast/router';

/** Logout is a full navigation: the gateway clears the session cookie and redirects. */
export function logout() {
  window.location.assign('/api/logout');
}

export function UserMenu({ user }: { user: SessionUser }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const panelId = useId();
  // the audit log is its owner's and admins' (the server refuses others anyway)
  const auditReader = useWorkspaceCan('audit.read');

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const name = [user.lastName, user.firstName].filter(Boolean).join(' ');
  const initials = avatarInitials(user);
  const avatarStyle = { whiteSpace: 'nowrap' } as const;
  const close = () => setOpen(false);
  return (
    <div className="pc-menu" ref={root}>
      <button
        type="button"
        className="pc-avatar"
        // the visible initials are part of the name (WCAG 2.5.3: label in name)
        aria-label={`${initials} (${t('nav.userMenu')})`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={panelId}
        data-testid="user-menu"
        style={avatarStyle}
        onClick={() => setOpen((v) => !v)}
      >
        {user.profileImageUrl ? <img src={user.profileImageUrl} alt="" /> : initials}
      </button>
      {open ? (
        <div className="pc-menu__panel" role="menu" id={panelId}>
          <div className="pc-menu__label">
            {name ? <div>{name}</div> : null}
            <div>{user.email}</div>
          </div>
          <Link role="menuitem" className="pc-menu__item" to="/" onClick={close}>
            {t('nav.dashboard')}
          </Link>
          <Link role="menuitem" className="pc-menu__item" to="/files" onClick={close}>
            {t('nav.files')}
          </Link>
          <Link role="menuitem" className="pc-menu__item" to="/points" onClick={close}>
            {t('nav.points')}
          </Link>
          <Link role="menuitem" className="pc-menu__item" to="/settings" onClick={close}>
            {t('nav.settings')}
          </Link>
          <Link
            role="menuitem"
            className="pc-menu__item"
            to="/workspace/members"
            onClick={close}
            data-testid="menu-members"
          >
            {t('nav.members')}
          </Link>
          {auditReader ? (
            <Link
              role="menuitem"
              className="pc-menu__item"
              to="/workspace/audit"
              onClick={close}
              data-testid="menu-audit"
            >
              {t('nav.audit')}
            </Link>
          ) : null}
          <button type="button" role="menuitem" className="pc-menu__item pc-menu__item--danger" onClick={logout}>
            {t('nav.logout')}
          </button>
        </div>
      ) : null}
    </div>
  );
}
