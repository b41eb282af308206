/**
 * Small line icons drawn for Lodestone (24×24, stroke = currentColor). They are decorative: the
 * control that holds one always has its own accessible name.
 */
import type { ReactNode, SVGProps } from 'react';

export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children'>;

/** The frame every icon shares; screens with icons of their own draw them with it (or with lineIcon). */
export function Icon({ children, className = 'size-5', ...rest }: IconProps & { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
      {...rest}
    >
      {children}
    </svg>
  );
}

/** An icon component that draws `strokes` in the shared frame. */
export function lineIcon(strokes: ReactNode) {
  return function LineIcon(props: IconProps) {
    return <Icon {...props}>{strokes}</Icon>;
  };
}

export const SunIcon = lineIcon(
  <>
    <circle cx="12" cy="12" r="4" />
    <path d="M12 2.5v2M12 19.5v2M2.5 12h2M19.5 12h2M5.3 5.3l1.4 1.4M17.3 17.3l1.4 1.4M5.3 18.7l1.4-1.4M17.3 6.7l1.4-1.4" />
  </>,
);

export const MoonIcon = lineIcon(<path d="M19.5 14.6A8 8 0 0 1 9.4 4.5a8 8 0 1 0 10.1 10.1Z" />);

export const MenuIcon = lineIcon(<path d="M4 7h16M4 12h16M4 17h16" />);

export const CloseIcon = lineIcon(<path d="M6 6l12 12M18 6 6 18" />);

export const ChevronDownIcon = lineIcon(<path d="m6 9 6 6 6-6" />);

export const CheckIcon = lineIcon(<path d="m5 12.5 4.5 4.5L19 7.5" />);

export const SettingsIcon = lineIcon(
  <>
    <path d="M19.03 10.46 21.41 10.7v2.6l-2.38.24-.97 2.34 1.51 1.85-1.84 1.84-1.85-1.51-2.34.97-.24 2.38h-2.6l-.24-2.38-2.34-.97-1.85 1.51-1.84-1.84 1.51-1.85-.97-2.34-2.38-.24v-2.6l2.38-.24.97-2.34-1.51-1.85 1.84-1.84 1.85 1.51 2.34-.97.24-2.38h2.6l.24 2.38 2.34.97 1.85-1.51 1.84 1.84-1.51 1.85Z" />
    <circle cx="12" cy="12" r="3" />
  </>,
);

export const LogoutIcon = lineIcon(
  <>
    <path d="M14 4H6.5A1.5 1.5 0 0 0 5 5.5v13A1.5 1.5 0 0 0 6.5 20H14" />
    <path d="M10 12h10M16.5 8.5 20 12l-3.5 3.5" />
  </>,
);

export const ExternalLinkIcon = lineIcon(
  <>
    <path d="M14 5h5v5M19 5l-8 8" />
    <path d="M17 14v4.5a1.5 1.5 0 0 1-1.5 1.5h-10A1.5 1.5 0 0 1 4 18.5v-10A1.5 1.5 0 0 1 5.5 7H10" />
  </>,
);

export const PhoneIcon = lineIcon(
  <path d="M8.2 3.5H5.5a2 2 0 0 0-2 2.2 16 16 0 0 0 14.8 14.8 2 2 0 0 0 2.2-2v-2.7l-3.9-1.6-2 2a12 12 0 0 1-4.8-4.8l2-2Z" />,
);

export const MailIcon = lineIcon(
  <>
    <rect x="3" y="5.5" width="18" height="13" rx="1.8" />
    <path d="m3.5 7 8.5 6.5L20.5 7" />
  </>,
);

export const InfoIcon = lineIcon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5.5M12 7.6v.1" />
  </>,
);

export const CopyIcon = lineIcon(
  <>
    <rect x="8.5" y="8.5" width="11" height="11" rx="1.8" />
    <path d="M15.5 8.5V6a1.5 1.5 0 0 0-1.5-1.5H6A1.5 1.5 0 0 0 4.5 6v8A1.5 1.5 0 0 0 6 15.5h2.5" />
  </>,
);

export const RefreshIcon = lineIcon(
  <>
    <path d="M19.5 12a7.5 7.5 0 0 1-13.2 4.9M4.5 12a7.5 7.5 0 0 1 13.2-4.9" />
    <path d="M18 3.5v4h-4M6 20.5v-4h4" />
  </>,
);

export const TrashIcon = lineIcon(<path d="M4.5 7h15M9.5 7V4.5h5V7M6.5 7l1 12.5h9l1-12.5M10 10.5v6M14 10.5v6" />);
