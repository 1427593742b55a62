import type { PageImage } from '../ports/page-renderer.js';

/**
 * Recently rendered page images (or other renderings: `sizeOf` tells their bytes), least recently used dropped first,
 * bounded by their total size (a Map keeps insertion order: a hit is moved to the end). Concurrent requests for one
 * page share one rendering.
 */
export class PageImageCache<T = PageImage> {
  private readonly images = new Map<string, T>();
  private readonly inFlight = new Map<string, Promise<T | null>>();
  private bytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly sizeOf: (value: T) => number = (image) => (image as PageImage).bytes.length,
  ) {}

  async getOrRender(key: string, render: () => Promise<T | null>): Promise<T | null> {
    const cached = this.images.get(key);
    if (cached) {
      this.images.delete(key);
      this.images.set(key, cached);
      return cached;
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = render().finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
      pending.then((image) => image && this.store(key, image), () => {});
    }
    return pending;
  }

  private store(key: string, image: T): void {
    const size = this.sizeOf(image);
    if (size > this.maxBytes || this.images.has(key)) return;
    this.images.set(key, image);
    this.bytes += size;
    for (const [oldKey, old] of this.images) {
      if (this.bytes <= this.maxBytes) break;
      this.images.delete(oldKey);
      this.bytes -= this.sizeOf(old);
    }
  }
}
