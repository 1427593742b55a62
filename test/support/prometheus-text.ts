/**
 * Reads Prometheus' text exposition format (what GET /metrics answers) enough for the tests: sample lines with their
 * labels, and which metric families are declared. Label values here never contain `",` or escaped quotes.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parseSamples(text: string): Sample[] {
  return text.split('\n').flatMap((line) => {
    const match = SAMPLE_LINE.exec(line);
    if (!match) return [];
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map((m) => [m[1], m[2]]));
    return [{ name: match[1], labels, value: Number(match[3]) }];
  });
}

/** Families declared with `# TYPE name type`. */
export function declaredFamilies(text: string): Map<string, string> {
  return new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
}

/** The sum of every sample of `name` whose labels include `labels` (0 when none). */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}
