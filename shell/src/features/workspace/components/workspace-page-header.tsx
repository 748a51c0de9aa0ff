import { useTranslation } from '@pagecast/i18n';
import type { ReactNode } from 'react';
import { roleWord } from '../model/people';
import type { ActiveWorkspace } from '../model/use-workspace';

/**
 * The heading of a page about the workspace acted in (members, audit log): its title, then the workspace's name and
 * the reader's role there, so nobody changes one workspace believing it is another; `children` follow (links).
 */
export function WorkspacePageHeader({
  title,
  active,
  children,
}: {
  title: string;
  active: Pick<ActiveWorkspace, 'name' | 'role'>;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div>
      <h1 className="pc-page__title">{title}</h1>
      <p className="pc-page__subtitle" style={{ margin: 0 }} data-testid="workspace-page-subtitle">
        {active.name
          ? t('workspace.members.subtitle', {
              name: active.name,
              role: active.role ? roleWord(t, active.role) : '',
            })
          : null}
      </p>
      {children}
    </div>
  );
}
