import net from 'node:net';

/** A raw TCP client for what fetch cannot do: half-sent bodies, slow headers, many idle connections. */
export class RawConnection {
  readonly socket: net.Socket;
  private received = '';
  private closedFlag = false;
  private readonly closed: Promise<void>;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (this.received += chunk));
    socket.on('error', () => {}); // a reset counts as closed, which 'close' reports
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.closedFlag = true;
        resolve();
      }),
    );
  }

  static open(url: string): Promise<RawConnection> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: hostname, port: Number(port) });
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  get text(): string {
    return this.received;
  }

  get isClosed(): boolean {
    return this.closedFlag;
  }

  write(data: string): void {
    this.socket.write(data);
  }

  /** True when the server closed the connection within `ms`; false when it was still open then. */
  async closedWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const result = await Promise.race([this.closed.then(() => true as const), timeout]);
    clearTimeout(timer);
    return result;
  }

  /** Waits until the received text matches `pattern` (or `ms` passes); returns whether it did. */
  async receivedWithin(pattern: RegExp, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!pattern.test(this.received)) {
      if (Date.now() > deadline || this.closedFlag) return pattern.test(this.received);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return true;
  }

  /** The status code of the first response received, if any. */
  get status(): number | undefined {
    const match = /^HTTP\/1\.1 (\d{3})/.exec(this.received);
    return match ? Number(match[1]) : undefined;
  }

  destroy(): void {
    this.socket.destroy();
  }
}
