import type { SVGProps } from 'react';

/** The confetti's pieces: x, y, rotation, colour (the decade palette's). */
const CONFETTI: readonly [number, number, number, string][] = [
  [30, 40, 20, '#fda19a'],
  [58, 18, -30, '#78c7fd'],
  [200, 22, 35, '#8bd47b'],
  [226, 52, -15, '#f09be8'],
  [20, 96, 60, '#dabc43'],
  [236, 104, -50, '#fda856'],
  [84, 8, 10, '#b6b4ff'],
  [176, 6, -40, '#1bd9d1'],
];

/**
 * The end of a game's picture (drawn for Hitline): a gold record with a
 * winner's ribbon, confetti round it. Decoration only (hidden from screen
 * readers); the record's edge takes the text colour so it reads on both
 * schemes. Still (no motion of its own): the celebration's confetti and sound
 * come from the end screen.
 */
export function WinIllustration(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 260 200" width="260" height="200" fill="none" aria-hidden="true" focusable="false" {...props}>
      <defs>
        <linearGradient id="hl-win-gold" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#fde68a" />
          <stop offset="0.5" stopColor="#f7c948" />
          <stop offset="1" stopColor="#b7791f" />
        </linearGradient>
      </defs>
      {CONFETTI.map(([x, y, r, c]) => (
        <rect key={`${x}-${y}`} x={x} y={y} width="12" height="6" rx="1.5" fill={c} transform={`rotate(${r} ${x + 6} ${y + 3})`} />
      ))}
      {/* the ribbon's tails behind the record */}
      <path d="M104 150 L92 196 L110 186 L120 198 L126 152 Z" fill="var(--chakra-colors-accent-solid)" />
      <path d="M156 150 L168 196 L150 186 L140 198 L134 152 Z" fill="var(--chakra-colors-accent-solid)" />
      {/* the gold record */}
      <circle cx="130" cy="96" r="66" fill="url(#hl-win-gold)" stroke="currentColor" strokeOpacity="0.3" strokeWidth="2" />
      <g stroke="#7a4f00" strokeOpacity="0.35" strokeWidth="1.5">
        <circle cx="130" cy="96" r="56" />
        <circle cx="130" cy="96" r="46" />
        <circle cx="130" cy="96" r="36" />
      </g>
      <path d="M96 60 A50 50 0 0 1 150 48" stroke="#ffffff" strokeOpacity="0.55" strokeWidth="4" strokeLinecap="round" />
      <circle cx="130" cy="96" r="22" fill="var(--chakra-colors-accent-solid)" />
      {/* a star on the label */}
      <path d="M130 83 l3.8 7.7 8.5 1.2 -6.2 6 1.5 8.4 -7.6 -4 -7.6 4 1.5 -8.4 -6.2 -6 8.5 -1.2 z" fill="#fff7d6" />
    </svg>
  );
}
