import type { SVGProps } from 'react';

/** One face-up card of the pictures: its colour, year and two lines for artist and title. */
function Card({ x, y, angle, color, year }: { x: number; y: number; angle: number; color: string; year: string }) {
  return (
    <g transform={`rotate(${angle} ${x + 40} ${y + 40})`}>
      <rect x={x} y={y} width="80" height="80" rx="12" fill={color} stroke="#100e1c" strokeOpacity="0.15" />
      <rect x={x + 18} y={y + 12} width="44" height="5" rx="2.5" fill="#100e1c" fillOpacity="0.55" />
      <text x={x + 40} y={y + 52} textAnchor="middle" fontSize="25" fontWeight="800" fill="#100e1c" style={{ fontFamily: 'var(--chakra-fonts-heading)' }}>
        {year}
      </text>
      <rect x={x + 22} y={y + 63} width="36" height="5" rx="2.5" fill="#100e1c" fillOpacity="0.4" />
    </g>
  );
}

/**
 * The welcome's picture (drawn for Hitline): a record and three hit cards
 * fanned out in year order, the game in one glance. Decoration only (hidden
 * from screen readers); it reads on both schemes (the record's edge takes the
 * text colour).
 */
export function WelcomeIllustration(props: SVGProps<SVGSVGElement>) {
  return (
    <svg viewBox="0 0 320 170" width="320" height="170" fill="none" aria-hidden="true" focusable="false" {...props}>
      {/* the record behind the cards */}
      <circle cx="250" cy="72" r="66" fill="#1b1929" stroke="currentColor" strokeOpacity="0.25" strokeWidth="2" />
      <g stroke="#ffffff" strokeOpacity="0.12" strokeWidth="1.5">
        <circle cx="250" cy="72" r="56" />
        <circle cx="250" cy="72" r="46" />
        <circle cx="250" cy="72" r="36" />
      </g>
      <circle cx="250" cy="72" r="20" fill="var(--chakra-colors-accent-solid)" />
      <circle cx="250" cy="72" r="3.5" fill="#1b1929" />
      {/* a timeline of three cards */}
      <Card x={22} y={58} angle={-12} color="#fda19a" year="1958" />
      <Card x={92} y={46} angle={-2} color="#dabc43" year="1977" />
      <Card x={162} y={60} angle={10} color="#78c7fd" year="2004" />
      {/* and the one still to place */}
      <g transform="rotate(-8 118 22)">
        <rect x="98" y="2" width="40" height="40" rx="7" fill="#2a1a5e" stroke="var(--chakra-colors-accent-focus-ring)" strokeWidth="2.5" />
        <text x="118" y="30" textAnchor="middle" fontSize="21" fontWeight="800" fill="#ff99c2" style={{ fontFamily: 'var(--chakra-fonts-heading)' }}>
          ?
        </text>
      </g>
    </svg>
  );
}
