import type { ReactNode } from 'react';

// Icons are inline SVG drawn with the text's colour (currentColor), never emoji or symbol characters: a kiosk or
// a Linux machine without an emoji font showed those as empty boxes. Decorative by default (aria-hidden, the text
// beside says what it is); give `label` when the icon alone carries the meaning.

export interface IconProps {
  /** the accessible name when the icon stands alone (role img); without it the icon is hidden from assistive tech */
  label?: string;
  /** CSS size, 1em (the text's size) by default */
  size?: number | string;
  className?: string;
}

function icon(name: string, paths: ReactNode, filled = false) {
  function Icon({ label, size = '1em', className }: IconProps) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        viewBox="0 0 24 24"
        width={size}
        height={size}
        fill={filled ? 'currentColor' : 'none'}
        stroke={filled ? 'none' : 'currentColor'}
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={['pc-icon', className].filter(Boolean).join(' ')}
        data-icon={name}
        focusable="false"
        role={label ? 'img' : undefined}
        aria-label={label}
        aria-hidden={label ? undefined : true}
      >
        {label ? <title>{label}</title> : null}
        {paths}
      </svg>
    );
  }
  Icon.displayName = `Icon(${name})`;
  return Icon;
}

export const IconAlert = icon(
  'alert',
  <>
    <path d="M12 3.5 2.5 20h19z" />
    <path d="M12 10v4.5" />
    <path d="M12 17.5h.01" />
  </>,
);
export const IconCheck = icon('check', <path d="m5 12.5 4.5 4.5L19 7.5" />);
export const IconMinus = icon('minus', <path d="M6 12h12" />);
export const IconPlay = icon('play', <path d="M8 5.5v13l11-6.5z" />, true);
export const IconPause = icon('pause', <path d="M7 5h3.5v14H7zm6.5 0H17v14h-3.5z" />, true);
export const IconUpload = icon(
  'upload',
  <>
    <path d="M12 15.5V4" />
    <path d="m7 9 5-5 5 5" />
    <path d="M4 15.5V19a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3.5" />
  </>,
);
export const IconFullscreen = icon(
  'fullscreen',
  <>
    <path d="M4 9V4h5" />
    <path d="M15 4h5v5" />
    <path d="M20 15v5h-5" />
    <path d="M9 20H4v-5" />
  </>,
);
export const IconExitFullscreen = icon(
  'exit-fullscreen',
  <>
    <path d="M9 4v5H4" />
    <path d="M20 9h-5V4" />
    <path d="M15 20v-5h5" />
    <path d="M4 15h5v5" />
  </>,
);
export const IconGift = icon(
  'gift',
  <>
    <path d="M4.5 11h15v9h-15z" />
    <path d="M3 7.5h18V11H3z" />
    <path d="M12 7.5V20" />
    <path d="M12 7.5C10.5 4.5 7 4 7 6.2 7 7.5 9.5 7.5 12 7.5zm0 0c1.5-3 5-3.5 5-1.3 0 1.3-2.5 1.3-5 1.3z" />
  </>,
);
export const IconTag = icon(
  'tag',
  <>
    <path d="M3.5 12.5V4h8.5l9 9-8.5 8.5z" />
    <path d="M8 8.5h.01" />
  </>,
);
export const IconArrowLeft = icon(
  'arrow-left',
  <>
    <path d="M19 12H5" />
    <path d="m11 6-6 6 6 6" />
  </>,
);
export const IconArrowUp = icon(
  'arrow-up',
  <>
    <path d="M12 19V5" />
    <path d="m6 11 6-6 6 6" />
  </>,
);
export const IconArrowDown = icon(
  'arrow-down',
  <>
    <path d="M12 5v14" />
    <path d="m6 13 6 6 6-6" />
  </>,
);
export const IconChevronLeft = icon('chevron-left', <path d="m15 6-6 6 6 6" />);
export const IconChevronRight = icon('chevron-right', <path d="m9 6 6 6-6 6" />);
export const IconClose = icon('close', <path d="M6 6l12 12M18 6 6 18" />);
export const IconMenu = icon('menu', <path d="M4 7h16M4 12h16M4 17h16" />);
export const IconExit = icon(
  'exit',
  <>
    <path d="M10 4H5a1 1 0 0 0-1 1v14a1 1 0 0 0 1 1h5" />
    <path d="m15 8 4 4-4 4" />
    <path d="M19 12H9" />
  </>,
);
