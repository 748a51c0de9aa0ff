import { SCREEN_ROTATIONS, type ScreenRotation } from '@pagecast/contracts';
import { FieldError } from '@pagecast/ui';
import { useTranslation } from '@pagecast/i18n';
import { OrientationIcon } from './orientation-icon';
import './health.css';

/** How a screen hangs: 0, 90, 180 or 270 degrees, each with a small picture of the screen on its wall. */
export function RotationPicker({
  name,
  value,
  onChange,
  error,
}: {
  name: string;
  value: ScreenRotation;
  onChange: (rotation: ScreenRotation) => void;
  error?: string | null;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="ph-rotation" data-testid="rotation-picker">
      <legend>{t('screens.health.rotation.label')}</legend>
      <div className="ph-rotation__choices">
        {SCREEN_ROTATIONS.map((r) => (
          <label key={r} className="ph-rotation__choice">
            <input type="radio" name={name} value={r} checked={value === r} onChange={() => onChange(r)} />
            <OrientationIcon rotation={r} />
            <span>{t(`screens.health.rotation.${r}`)}</span>
          </label>
        ))}
      </div>
      <FieldError>{error ?? null}</FieldError>
    </fieldset>
  );
}
