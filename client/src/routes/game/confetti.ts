/**
 * Confetti for a win, drawn on a canvas: two bursts from the lower corners, then
 * paper falling and fluttering, gone after a few seconds. Written here instead
 * of taken from a library: it is some sixty lines, it needs no worker (the CSP
 * allows none from blob: URLs, which canvas-confetti uses by default), and it
 * loads only when a game is won (the celebration imports it lazily). Callers
 * leave it out when the system asks for reduced motion.
 */

export interface ConfettiOptions {
  /** Pieces of paper. */
  count?: number;
  /** How long pieces are added and fall (ms). */
  duration?: number;
  colors?: readonly string[];
  /** Random numbers in [0, 1) (tests pass a seeded one). */
  random?: () => number;
}

interface Piece {
  x: number;
  y: number;
  vx: number;
  vy: number;
  angle: number;
  spin: number;
  wobble: number;
  size: number;
  color: string;
}

/** Bright on a dark stage and on white alike. */
export const CONFETTI_COLORS = ['#f43f5e', '#f59e0b', '#22c55e', '#3b82f6', '#a855f7', '#ec4899', '#14b8a6'] as const;

const GRAVITY = 900; // px/s²
const DRAG = 1.6; // 1/s

/** Launches the confetti on `canvas` (sized to its box); returns a function that stops it at once. */
export function launchConfetti(canvas: HTMLCanvasElement, options: ConfettiOptions = {}): () => void {
  const { count = 180, duration = 4000, colors = CONFETTI_COLORS, random = Math.random } = options;
  const ctx = canvas.getContext('2d');
  if (!ctx) return () => undefined;
  const ratio = Math.min(2, window.devicePixelRatio || 1);
  const width = canvas.clientWidth;
  const height = canvas.clientHeight;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  ctx.scale(ratio, ratio);

  const pieces: Piece[] = Array.from({ length: count }, (_, i) => {
    // half from each lower corner, thrown up and inwards
    const left = i % 2 === 0;
    const speed = (0.6 + random() * 0.5) * Math.max(height, 500) * 1.6;
    const tilt = 0.1 + random() * 0.6;
    const aim = -Math.PI / 2 + (left ? tilt : -tilt);
    return {
      x: left ? width * 0.05 : width * 0.95,
      y: height,
      vx: Math.cos(aim) * speed,
      vy: Math.sin(aim) * speed,
      angle: random() * Math.PI * 2,
      spin: (random() - 0.5) * 12,
      wobble: random() * Math.PI * 2,
      size: 6 + random() * 6,
      color: colors[Math.floor(random() * colors.length)] ?? '#fff',
    };
  });

  let last = performance.now();
  const start = last;
  let frame = 0;
  const tick = (now: number): void => {
    const dt = Math.min(0.05, (now - last) / 1000);
    last = now;
    ctx.clearRect(0, 0, width, height);
    let visible = 0;
    for (const p of pieces) {
      p.vx -= p.vx * DRAG * dt;
      p.vy += (GRAVITY - p.vy * DRAG) * dt;
      p.x += (p.vx + Math.sin(p.wobble) * 40) * dt;
      p.y += p.vy * dt;
      p.angle += p.spin * dt;
      p.wobble += 6 * dt;
      if (p.y > height + 20) continue;
      visible++;
      ctx.save();
      ctx.translate(p.x, p.y);
      ctx.rotate(p.angle);
      // a flat piece of paper turning: its height follows the flutter
      ctx.fillStyle = p.color;
      const tall = p.size * 0.6 * (0.3 + 0.7 * Math.abs(Math.cos(p.wobble)));
      ctx.fillRect(-p.size / 2, -tall / 2, p.size, tall);
      ctx.restore();
    }
    if (visible > 0 && now - start < duration + 3000) frame = requestAnimationFrame(tick);
    else ctx.clearRect(0, 0, width, height);
  };
  frame = requestAnimationFrame(tick);
  return () => {
    cancelAnimationFrame(frame);
    ctx.clearRect(0, 0, width, height);
  };
}
