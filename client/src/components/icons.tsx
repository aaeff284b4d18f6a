import { Icon, type IconProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/**
 * The few icons the shell needs, as inline SVG (no icon font, nothing to
 * download). Decorative: every control that shows one also has a text label.
 */

function make(path: ReactNode) {
  return function SvgIcon(props: IconProps) {
    return (
      <Icon boxSize="5" {...props} aria-hidden="true">
        <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" focusable="false">
          {path}
        </svg>
      </Icon>
    );
  };
}

export const MenuIcon = make(<path d="M4 6h16M4 12h16M4 18h16" />);
export const UserIcon = make(
  <>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21c0-4.4 3.6-8 8-8s8 3.6 8 8" />
  </>,
);
export const CheckIcon = make(<path d="M5 13l4 4L19 7" />);
/** A playing card: games without audio. */
export const CardIcon = make(<path d="M7 3h10a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zM9 8h6M9 12h6" />);
export const DownloadIcon = make(<path d="M12 4v11m0 0l-4-4m4 4l4-4M5 20h14" />);
export const ChevronDownIcon = make(<path d="M6 9l6 6 6-6" />);
export const CloseIcon = make(<path d="M6 6l12 12M18 6L6 18" />);
export const PlusIcon = make(<path d="M12 5v14M5 12h14" />);
