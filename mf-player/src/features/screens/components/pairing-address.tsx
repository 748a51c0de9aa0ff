import { Button, toast } from '@pagecast/ui';
import qrcode from 'qrcode-generator';
import { useMemo } from 'react';
import { useTranslation } from '@pagecast/i18n';

/** Where a display opens the player: this site's origin and the display path. */
export const displayAddress = () => `${window.location.origin}/screen`;

/** The dark modules of a QR code as one SVG path (a 1×1 square per module, a 2-module quiet zone around). */
export function qrPath(text: string): { size: number; d: string } {
  const q = qrcode(0, 'M');
  q.addData(text);
  q.make();
  const n = q.getModuleCount();
  let d = '';
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (q.isDark(r, c)) d += `M${c + 2} ${r + 2}h1v1h-1z`;
  return { size: n + 4, d };
}

/** The address to type on the display, and a QR code of it (for a display with a camera-less keyboard, a phone). */
export function PairingAddress() {
  const { t } = useTranslation();
  const url = displayAddress();
  const qr = useMemo(() => qrPath(url), [url]);
  const copy = () => {
    void navigator.clipboard
      ?.writeText(url)
      .then(() => toast({ title: t('screens.board.copied') }))
      .catch(() => undefined);
  };
  return (
    <div className="ps-address">
      <div className="ps-address__text">
        <p className="ps-step">{t('screens.board.step1')}</p>
        <p className="ps-address__url">
          {/* a narrow window breaks the line between the site and the path, not inside a word */}
          <code data-testid="display-address">
            {window.location.origin}
            <wbr />
            {url.slice(window.location.origin.length)}
          </code>
        </p>
        {typeof navigator !== 'undefined' && navigator.clipboard ? (
          <Button type="button" variant="outline" size="sm" onClick={copy}>
            {t('screens.board.copy')}
          </Button>
        ) : null}
        <p className="pc-muted pl-small">{t('screens.board.addressHelp')}</p>
      </div>
      <svg
        className="ps-address__qr"
        role="img"
        viewBox={`0 0 ${qr.size} ${qr.size}`}
        width={132}
        height={132}
        shapeRendering="crispEdges"
        data-testid="display-address-qr"
      >
        <title>{t('screens.board.qr', { url })}</title>
        <rect width={qr.size} height={qr.size} fill="#fff" />
        <path d={qr.d} fill="#000" />
      </svg>
    </div>
  );
}
