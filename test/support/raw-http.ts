import net from 'node:net';

/** One HTTP/1.1 response as received: status, headers (lower-case names) and its Content-Length body. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The complete responses at the start of `text` (each framed by Content-Length, as this server's answers are). */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) return responses;
    const [statusLine, ...lines] = rest.slice(0, headEnd).split('\r\n');
    const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine!);
    if (!status) return responses;
    const headers = Object.fromEntries(lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }));
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = headEnd + 4;
    if (Buffer.byteLength(rest.slice(bodyStart)) < length) return responses;
    const body = Buffer.from(rest.slice(bodyStart)).subarray(0, length).toString();
    responses.push({ status: Number(status[1]), headers, body });
    rest = rest.slice(bodyStart + body.length);
  }
}

/** A raw TCP client for what fetch cannot do: half-sent bodies, slow headers, many idle connections. */
export class RawConnection {
  readonly socket: net.Socket;
  private received = '';
  private closedFlag = false;
  /** A socket error (a reset) and how much had been received when it came. */
  error: { code: string | undefined; receivedBefore: string } | undefined;
  private readonly closed: Promise<void>;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (this.received += chunk));
    // A reset counts as closed, which 'close' reports; what had arrived by then tells whether it cut an answer short.
    socket.on('error', (error: NodeJS.ErrnoException) => (this.error ??= { code: error.code, receivedBefore: this.received }));
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

  /** The complete responses received so far. */
  get responses(): RawResponse[] {
    return parseResponses(this.received);
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
