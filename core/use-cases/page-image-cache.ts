import type { PageImage } from '../ports/page-renderer.js';

/**
 * Recently rendered page images, least recently used dropped first, bounded by their total size (a Map keeps
 * insertion order: a hit is moved to the end). Concurrent requests for one page share one rendering.
 */
export class PageImageCache {
  private readonly images = new Map<string, PageImage>();
  private readonly inFlight = new Map<string, Promise<PageImage | null>>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  async getOrRender(key: string, render: () => Promise<PageImage | null>): Promise<PageImage | null> {
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

  private store(key: string, image: PageImage): void {
    if (image.bytes.length > this.maxBytes || this.images.has(key)) return;
    this.images.set(key, image);
    this.bytes += image.bytes.length;
    for (const [oldKey, old] of this.images) {
      if (this.bytes <= this.maxBytes) break;
      this.images.delete(oldKey);
      this.bytes -= old.bytes.length;
    }
  }
}
