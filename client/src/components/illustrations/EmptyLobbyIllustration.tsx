import type { SVGProps } from 'react';

/**
 * The empty lobby's picture (drawn for Hitline): a turntable waiting with a
 * record on it and two cards floating above, face down. Decoration only
 * (hidden from screen readers); lines in the text colour (`currentColor`),
 * fills from the theme's variables, so it suits both schemes.
 */
export function EmptyLobbyIllustration(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 240 150" width="240" height="150" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" {...props}>
      {/* the turntable */}
      <rect x="20" y="56" width="170" height="84" rx="14" fill="var(--chakra-colors-bg-muted)" />
      <circle cx="88" cy="98" r="36" fill="#1b1929" />
      <g stroke="#ffffff" strokeOpacity="0.16" strokeWidth="1.5">
        <circle cx="88" cy="98" r="29" />
        <circle cx="88" cy="98" r="22" />
      </g>
      <circle cx="88" cy="98" r="11" fill="var(--chakra-colors-accent-solid)" stroke="none" />
      <circle cx="88" cy="98" r="2.5" fill="#1b1929" stroke="none" />
      {/* the arm, resting */}
      <circle cx="160" cy="74" r="7" fill="var(--chakra-colors-bg-panel)" />
      <path d="M160 74 L164 112 L148 126" />
      <rect x="141" y="121" width="11" height="9" rx="2" transform="rotate(-35 146 126)" fill="var(--chakra-colors-bg-panel)" />
      <circle cx="40" cy="126" r="3" fill="currentColor" stroke="none" />
      {/* two cards, face down, floating */}
      <g transform="rotate(-10 200 40)">
        <rect x="180" y="18" width="40" height="40" rx="7" fill="#2a1a5e" />
        <text x="200" y="46" textAnchor="middle" fontSize="22" fontWeight="800" fill="#ff99c2" stroke="none" style={{ fontFamily: 'var(--chakra-fonts-heading)' }}>?</text>
      </g>
      <g transform="rotate(12 150 22)">
        <rect x="134" y="6" width="32" height="32" rx="6" fill="#fda856" />
      </g>
      <path d="M108 30 v-16 l12 -4 v16" />
      <circle cx="104" cy="31" r="4.5" fill="currentColor" stroke="none" />
      <circle cx="116" cy="27" r="4.5" fill="currentColor" stroke="none" />
    </svg>
  );
}
