import { unzipSync, type UnzipFileInfo } from 'fflate';
import { UnprocessableDocumentError } from '../../../core/domain/errors.js';

/** Limits on what an Office file (a zip of XML parts) may unpack to (MAX_UNPACKED_MB). */
export interface ZipLimits {
  /** Bytes all the parts read may unpack to together. */
  maxUnpackedBytes: number;
}

/** A part this much larger than its packed size is a zip bomb: real XML packs at 5-100× (a sheet of repeated rows ~150×), images and media at ~1×. */
const MAX_RATIO = 500;
/** Parts smaller than this are not judged by their ratio (a run of spaces packs very well and is harmless). */
const RATIO_FLOOR_BYTES = 1_048_576;

/**
 * The parts of an Office Open XML file, inflated one at a time on demand. fflate (small, no dependencies, maintained)
 * reads the zip's central directory first: the unpacked size it declares for each part is checked against the limits
 * before anything is inflated, and each part is inflated into a buffer of exactly that size, so a part that lies
 * about its size cannot unpack to more (fflate stops at the end of the buffer it is given).
 */
export class ZipParts {
  private readonly entries = new Map<string, UnzipFileInfo>();
  private unpacked = 0;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly limits: ZipLimits,
    private readonly what: string,
  ) {
    if (!(bytes[0] === 0x50 && bytes[1] === 0x4b)) {
      throw new UnprocessableDocumentError(`The file is not ${what} (it is not a zip package): it may be mislabelled or damaged`);
    }
    try {
      unzipSync(bytes, {
        filter: (file) => {
          this.entries.set(file.name, file);
          return false; // nothing inflated while listing
        },
      });
    } catch (error) {
      throw new UnprocessableDocumentError(`The file is not ${what}: its zip package is damaged`, { cause: error });
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  /** The part's bytes, or undefined when it is absent; refuses a part or a total over the limits with the reason. */
  bytesOf(name: string): Uint8Array | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    const { maxUnpackedBytes } = this.limits;
    if (entry.originalSize > RATIO_FLOOR_BYTES && entry.originalSize > entry.size * MAX_RATIO) {
      throw new UnprocessableDocumentError(
        `The file is refused as a zip bomb: its part ${name} would unpack from ${entry.size} bytes to ${entry.originalSize}`,
      );
    }
    this.unpacked += entry.originalSize;
    if (this.unpacked > maxUnpackedBytes) {
      throw new UnprocessableDocumentError(
        `The file unpacks to more than ${Math.round(maxUnpackedBytes / 1_048_576)} MB of content (MAX_UNPACKED_MB): ` +
          'it may be a zip bomb; split it into smaller files',
      );
    }
    let part: Uint8Array | undefined;
    try {
      part = unzipSync(this.bytes, { filter: (file) => file.name === name })[name];
    } catch (error) {
      throw new UnprocessableDocumentError(`The file is damaged: its part ${name} cannot be unpacked`, { cause: error });
    }
    return part;
  }

  /** The part as text (UTF-8, as Office writes its XML). */
  textOf(name: string): string | undefined {
    const bytes = this.bytesOf(name);
    return bytes && new TextDecoder('utf-8').decode(bytes);
  }
}
