/** Time is injected so that tests and scenario runs control the ledger's transaction time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that a scenario or a test sets explicitly; it never moves by itself. */
export class ManualClock implements Clock {
  constructor(private current: Date = new Date('2026-12-01T00:00:00Z')) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  set(at: Date): void {
    this.current = new Date(at.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
