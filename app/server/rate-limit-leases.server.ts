// Leases on the platform's rate limiter: one limiter call in `leaseSize` instead of one per request.
//
// The limiter binding is configured at `perWindow / leaseSize` calls per window, and every call
// it allows lets this isolate serve `leaseSize` requests of that key in the same clock-aligned
// window. A key therefore never gets more than `perWindow` requests in a window, however its
// requests spread over isolates; it may be refused a little early when several isolates each hold
// part of a lease (ADR 0015).

import { BoundedMap } from "~/lib/bounded-map";

type Lease = { window: number; left: number; refused: boolean };

export type RateLimiterCall = (key: string) => Promise<boolean>;

export class RateLimitLeases {
  private readonly leases: BoundedMap<string, Lease>;

  constructor(
    private readonly leaseSize: number,
    private readonly periodMs: number,
    maxKeys = 10_000,
  ) {
    this.leases = new BoundedMap(maxKeys);
  }

  /** True when `key` may make one more request now; asks `limiter` only when this isolate holds no credit. */
  async allow(key: string, limiter: RateLimiterCall, now = Date.now()): Promise<boolean> {
    const window = Math.floor(now / this.periodMs);
    const held = this.leases.get(key);
    if (held && held.window === window) {
      if (held.left > 0) {
        held.left--;
        return true;
      }
      // The limiter said no in this window: it will go on saying no until the window ends.
      if (held.refused) return false;
    }
    const granted = await limiter(key);
    const lease = this.current(key, window);
    // The window ended while the limiter answered: its grant belonged to the old window.
    if (!lease) return granted;
    if (granted) {
      lease.left += this.leaseSize - 1;
      return true;
    }
    lease.refused = true;
    // A parallel request's grant may have left credit meanwhile: it is this window's to spend.
    if (lease.left > 0) {
      lease.left--;
      return true;
    }
    return false;
  }

  /** This window's lease of `key`, made when missing; null when a later window has begun. */
  private current(key: string, window: number): Lease | null {
    const lease = this.leases.get(key);
    if (lease && lease.window > window) return null;
    if (lease && lease.window === window) return lease;
    const fresh = { window, left: 0, refused: false };
    // A lease is set when it begins, so the one forgotten first is the one that began longest ago.
    this.leases.set(key, fresh);
    return fresh;
  }
}
