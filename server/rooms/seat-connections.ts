import { later, type Timer } from './timer.ts';

/**
 * Who has a game open, by user (a user may have several tabs): when a user's
 * last connection is gone for longer than his grace, `goneFor` is told, and the
 * game marks his seat absent. A connection back within the grace cancels it.
 */
export class SeatConnections {
  private readonly counts = new Map<string, number>();
  private readonly absentTimers = new Map<string, Timer>();
  private readonly goneFor: (userId: string) => void;

  constructor(goneFor: (userId: string) => void) {
    this.goneFor = goneFor;
  }

  /** How many users have a connection. */
  get size(): number {
    return this.counts.size;
  }

  /** A connection of `userId` opened. */
  open(userId: string): void {
    this.counts.set(userId, (this.counts.get(userId) ?? 0) + 1);
    this.absentTimers.get(userId)?.clear();
    this.absentTimers.delete(userId);
  }

  /** A connection of `userId` closed: his last one starts his grace of `graceMs`. */
  close(userId: string, graceMs: number): void {
    const left = (this.counts.get(userId) ?? 1) - 1;
    if (left > 0) {
      this.counts.set(userId, left);
      return;
    }
    this.counts.delete(userId);
    this.absentLater(userId, graceMs);
  }

  /** Tells `goneFor(userId)` after `graceMs` unless one of his connections is back by then. */
  absentLater(userId: string, graceMs: number): void {
    const due = Date.now() + graceMs;
    const markAbsent = () => {
      // Date.now() and the timer's clock may disagree by a millisecond: wait out the rest
      if (Date.now() < due) {
        this.absentTimers.set(userId, later(markAbsent, due - Date.now()));
        return;
      }
      this.absentTimers.delete(userId);
      if (!this.counts.has(userId)) this.goneFor(userId);
    };
    if (graceMs === 0) markAbsent();
    else this.absentTimers.set(userId, later(markAbsent, graceMs));
  }

  /** Stops every grace running: nobody turns absent from now on. */
  stop(): void {
    for (const t of this.absentTimers.values()) t.clear();
  }
}
