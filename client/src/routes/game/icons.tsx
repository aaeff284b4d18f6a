import { Icon, type IconProps } from '@chakra-ui/react';

/** The game screen's own icon, inline like the shell's (components/icons.tsx); decorative. */
export function ClockIcon(props: IconProps) {
  return (
    <Icon boxSize="5" {...props} aria-hidden="true">
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" focusable="false">
        <circle cx="12" cy="13" r="8" />
        <path d="M12 9v4l2 2M9 2h6" />
      </svg>
    </Icon>
  );
}
