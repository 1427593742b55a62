import type { Socket } from 'node:net';
import { clientKey } from './client-address.js';

/** How many of each key are open; a key whose count is back at zero is dropped, so the map holds live keys only. */
export class CountPerKey {
  private readonly counts = new Map<string, number>();

  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string): void {
    this.counts.set(key, this.get(key) + 1);
  }

  remove(key: string): void {
    const left = this.get(key) - 1;
    if (left > 0) this.counts.set(key, left);
    else this.counts.delete(key);
  }
}

/**
 * Over-cap connections held at once to be answered 503, from one socket address and in all. Each costs a socket and an
 * HTTP parser until its request head arrives (Node cuts a head slower than HTTP_HEADERS_TIMEOUT_MS) and its answer is
 * written. Past these a flood, or a slow-loris keeping them open without a request, must cost no more: a connection
 * beyond them is destroyed unanswered (as every over-cap connection once was), while those already held are answered.
 */
export const OVERFLOW_PER_ADDRESS = 32;
export const OVERFLOW_TOTAL = 256;

export interface ConnectionCapLimits {
  /** Open connections from all clients together. */
  total: number;
  /** Open connections per socket address (clientKey); none behind a trusted proxy, whose sockets carry many clients. */
  perAddress?: number;
}

/**
 * Counts open connections per socket address and in all. A connection over a cap is still accepted, so that its
 * request can be answered 503 with Retry-After (by the app, see `refusalOf`) rather than dropped without a word, which
 * a client cannot tell from a network fault.
 */
export class ConnectionCap {
  private open = 0;
  private readonly openPerAddress = new CountPerKey();
  private overflow = 0;
  private readonly overflowPerAddress = new CountPerKey();
  private readonly refusals = new WeakMap<Socket, string>();

  constructor(private readonly limits: ConnectionCapLimits) {}

  /** A new connection: counted; or over a cap, marked to be refused; or past the overflow ceilings, destroyed. */
  admit(socket: Socket): void {
    if (socket.remoteAddress === undefined) return; // already gone
    const address = clientKey(socket.remoteAddress);
    const refusal = this.refusal(address);
    if (refusal === undefined) {
      this.open++;
      this.openPerAddress.add(address);
      socket.once('close', () => {
        this.open--;
        this.openPerAddress.remove(address);
      });
      return;
    }
    if (this.overflow >= OVERFLOW_TOTAL || this.overflowPerAddress.get(address) >= OVERFLOW_PER_ADDRESS) {
      socket.destroy();
      return;
    }
    this.overflow++;
    this.overflowPerAddress.add(address);
    this.refusals.set(socket, refusal);
    socket.once('close', () => {
      this.overflow--;
      this.overflowPerAddress.remove(address);
    });
  }

  /** Why requests on this connection are refused (it came over a cap), or undefined for a connection within them. */
  refusalOf(socket: Socket): string | undefined {
    return this.refusals.get(socket);
  }

  private refusal(address: string): string | undefined {
    if (this.open >= this.limits.total) return 'Too many connections to this server; try again shortly';
    const perAddress = this.limits.perAddress;
    if (perAddress !== undefined && this.openPerAddress.get(address) >= perAddress) {
      return `Too many connections from this address (at most ${perAddress} at once); try again shortly`;
    }
    return undefined;
  }
}
