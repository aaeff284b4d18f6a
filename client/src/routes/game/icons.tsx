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

/** One stroke drawing per kind of news in the event feed (24×24, decorative). */
const FEED_PATHS: Record<string, string> = {
  joined: 'M12 5v14M5 12h14',
  left: 'M5 12h14',
  removed: 'M6 6l12 12M18 6L6 18',
  placed: 'M12 4v12m0 0l-4-4m4 4l4-4M5 20h14',
  intercepted: 'M4 12h12m0 0l-4-4m4 4l-4 4M20 5v14',
  declined: 'M6 12h12',
  skipped: 'M5 5l8 7-8 7zM17 5v14',
  claimed: 'M12 3l2.7 5.6 6.3.9-4.5 4.4 1 6.1-5.5-2.9-5.5 2.9 1-6.1L3 9.5l6.3-.9z',
  scored: 'M12 3l2.7 5.6 6.3.9-4.5 4.4 1 6.1-5.5-2.9-5.5 2.9 1-6.1L3 9.5l6.3-.9z',
  revealed: 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12zM12 9a3 3 0 100 6 3 3 0 000-6z',
  token: 'M12 3a9 9 0 100 18 9 9 0 000-18zM12 7a5 5 0 100 10 5 5 0 000-10z',
  answer: 'M5 13l4 4L19 7',
  turn: 'M7 4l12 8-12 8z',
  ask: 'M9 9a3 3 0 115 2c-1 .8-2 1.5-2 3M12 18v.01',
  clue: 'M6 3h12v18H6zM9 8h6M9 12h6',
  timeout: 'M12 5a8 8 0 100 16 8 8 0 000-16zM12 9v4l2 2M9 2h6',
  connection: 'M2 9a15 15 0 0120 0M5 13a10 10 0 0114 0M8.5 16.5a5 5 0 017 0M12 20v.01',
  renamed: 'M4 20h4L19 9l-4-4L4 16zM13 7l4 4',
  started: 'M5 21V4h11l-2 4 2 4H5',
  stopped: 'M6 6h12v12H6z',
  ended: 'M8 21h8M12 17v4M7 4h10v5a5 5 0 01-10 0zM7 6H4a3 3 0 003 4M17 6h3a3 3 0 01-3 4',
  settings: 'M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12M20 18h0M14 4v4M8 10v4M16 16v4',
  // a scale: the table weighs a card's year
  dispute: 'M12 3v18M7 21h10M5 7h14M5 7l-3 6a3 3 0 006 0zM19 7l-3 6a3 3 0 006 0z',
  vote: 'M9 11l3 3 8-8M20 12v7a2 2 0 01-2 2H6a2 2 0 01-2-2V6a2 2 0 012-2h9',
};

export function FeedIcon({ kind, ...props }: IconProps & { kind: string }) {
  return (
    <Icon boxSize="4" {...props} aria-hidden="true">
      <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" focusable="false">
        <path d={FEED_PATHS[kind] ?? FEED_PATHS.turn} />
      </svg>
    </Icon>
  );
}
