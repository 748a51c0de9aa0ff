import { useTranslation } from '@pagecast/i18n';
import { useAuth } from '@pagecast/ui';
import './workspace.css';
import { useSwitchWorkspace } from '../model/switch-workspace';
import { useActiveWorkspace } from '../model/use-workspace';

/**
 * The header's choice of workspace, with the person's role in each; shown only to someone who belongs to more
 * than one. Choosing one names it in every call, live stream and the address.
 */
export function WorkspaceSwitcher({ place = 'bar' }: { place?: 'bar' | 'menu' }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const active = useActiveWorkspace();
  const switchTo = useSwitchWorkspace(user?.id);
  if (!active || active.workspaces.length < 2) return null;
  return (
    <label className={`pc-workspace-switcher pc-workspace-switcher--${place}`}>
      <span className="pc-visually-hidden">{t('workspace.switcher.label')}</span>
      <select
        className="pc-select"
        data-testid={place === 'bar' ? 'workspace-switcher' : 'workspace-switcher-menu'}
        value={active.id}
        onChange={(e) => switchTo(e.target.value)}
      >
        {active.workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {t('workspace.switcher.option', { name: w.name, role: t(`workspace.roles.${w.role}`) })}
          </option>
        ))}
      </select>
    </label>
  );
}
