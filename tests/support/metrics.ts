/** A Prometheus text exposition, read the way Prometheus reads one. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  types: Map<string, string>;
  helps: Set<string>;
  samples: Sample[];
}

export function parseMetrics(text: string): Exposition {
  const exposition: Exposition = { types: new Map(), helps: new Set(), samples: [] };
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) exposition.types.set(type[1]!, type[2]!);
    const help = /^# HELP (\S+) \S/.exec(line);
    if (help) exposition.helps.add(help[1]!);
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (sample) {
      const labels = Object.fromEntries(
        [...(sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((match) => [match[1]!, match[2]!]),
      );
      exposition.samples.push({ name: sample[1]!, labels, value: Number(sample[3]) });
    }
  }
  return exposition;
}

/** The sum of a metric's samples whose labels include these. */
export function sumOf(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  return exposition.samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

/** What a process serves on its admin port's /metrics. */
export async function scrapeMetrics(url: string): Promise<Exposition> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return parseMetrics(await response.text());
}
