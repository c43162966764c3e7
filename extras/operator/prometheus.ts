// The Prometheus text exposition format 0.0.4: https://prometheus.io/docs/instrumenting/exposition_formats/

/** One metric family: it writes its `# HELP`, `# TYPE` and sample lines. */
export interface MetricFamily {
  render(lines: string[]): void;
}

/** A label value as the format writes it between double quotes: backslash, double quote and line feed escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (character) => (character === '\n' ? '\\n' : `\\${character}`));
}

/** A sample value: `NaN`, `+Inf`, `-Inf`, or the number as JavaScript writes it (which the format reads). */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  return value === -Infinity ? '-Inf' : String(value);
}

/** The `# HELP` and `# TYPE` lines of a family; HELP text escapes backslash and line feed. */
export function writeHeader(lines: string[], name: string, help: string, type: 'counter' | 'gauge' | 'histogram' | 'summary'): void {
  lines.push(`# HELP ${name} ${help.replace(/[\\\n]/g, (character) => (character === '\n' ? '\\n' : '\\\\'))}`, `# TYPE ${name} ${type}`);
}

/** `{name="value",…}` for label names and their values, empty without labels. */
function labelText(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return '';
  return `{${names.map((name, index) => `${name}="${escapeLabelValue(values[index] ?? '')}"`).join(',')}}`;
}

/** The series of a family by label values, each made at first use with its label text written once. */
class SeriesMap<Series> {
  readonly #labelNames: readonly string[];
  readonly #create: () => Series;
  readonly #series = new Map<string, { labels: string; series: Series }>();

  constructor(labelNames: readonly string[], create: () => Series) {
    this.#labelNames = labelNames;
    this.#create = create;
  }

  get(values: readonly string[]): Series {
    if (values.length !== this.#labelNames.length) throw new TypeError(`Expected ${this.#labelNames.length} label values, got ${values.length}`);
    const key = values.join('\u0000');
    let entry = this.#series.get(key);
    if (entry === undefined) {
      entry = { labels: labelText(this.#labelNames, values), series: this.#create() };
      this.#series.set(key, entry);
    }
    return entry.series;
  }

  entries(): IterableIterator<{ labels: string; series: Series }> {
    return this.#series.values();
  }
}

/** The value of one counter or gauge series. */
export interface ValueSeries {
  value: number;
}

/** A counter [format: TYPE counter]: a value per label set that only goes up. */
export class Counter implements MetricFamily {
  readonly #name: string;
  readonly #help: string;
  readonly #series: SeriesMap<ValueSeries>;

  constructor(name: string, help: string, labelNames: readonly string[] = []) {
    this.#name = name;
    this.#help = help;
    this.#series = new SeriesMap(labelNames, () => ({ value: 0 }));
  }

  /** The series of these label values, in the order of the label names. */
  series(values: readonly string[]): ValueSeries {
    return this.#series.get(values);
  }

  render(lines: string[]): void {
    writeHeader(lines, this.#name, this.#help, 'counter');
    for (const { labels, series } of this.#series.entries()) lines.push(`${this.#name}${labels} ${formatValue(series.value)}`);
  }
}

/** A gauge without labels [format: TYPE gauge]: a value set by its owner, or read when scraped. */
export class Gauge implements MetricFamily {
  readonly #name: string;
  readonly #help: string;
  readonly #read: (() => number) | undefined;
  value = 0;

  constructor(name: string, help: string, read?: () => number) {
    this.#name = name;
    this.#help = help;
    this.#read = read;
  }

  render(lines: string[]): void {
    writeHeader(lines, this.#name, this.#help, 'gauge');
    lines.push(`${this.#name} ${formatValue(this.#read === undefined ? this.value : this.#read())}`);
  }
}

/** The observations of one histogram series: per bucket (not cumulative; the last one is `+Inf`), their sum and count. */
export interface HistogramSeries {
  readonly counts: number[];
  sum: number;
  count: number;
}

/** A histogram with fixed buckets [format: TYPE histogram]: cumulative `_bucket` lines with `le`, `_sum` and `_count`. */
export class Histogram implements MetricFamily {
  readonly #name: string;
  readonly #help: string;
  readonly #bounds: readonly number[];
  readonly #series: SeriesMap<HistogramSeries>;

  /** `bounds` are the buckets' upper bounds in ascending order, `+Inf` left out (it is always there). */
  constructor(name: string, help: string, labelNames: readonly string[], bounds: readonly number[]) {
    if (labelNames.includes('le')) throw new TypeError(`Histogram ${name}: \`le\` is the bucket label`);
    if (bounds.some((bound, index) => index > 0 && bound <= (bounds[index - 1] ?? -Infinity))) throw new TypeError(`Histogram ${name}: bounds must ascend`);
    this.#name = name;
    this.#help = help;
    this.#bounds = bounds;
    this.#series = new SeriesMap(labelNames, () => ({ counts: new Array<number>(bounds.length + 1).fill(0), sum: 0, count: 0 }));
  }

  /** The series of these label values, in the order of the label names. */
  series(values: readonly string[]): HistogramSeries {
    return this.#series.get(values);
  }

  /** Records one observation in a series of this histogram. */
  observe(series: HistogramSeries, value: number): void {
    const bounds = this.#bounds;
    let index = 0;
    while (index < bounds.length && value > (bounds[index] as number)) index++;
    series.counts[index] = (series.counts[index] ?? 0) + 1;
    series.sum += value;
    series.count++;
  }

  render(lines: string[]): void {
    const name = this.#name;
    writeHeader(lines, name, this.#help, 'histogram');
    for (const { labels, series } of this.#series.entries()) {
      // The `le` label joins the series' own labels: `{operation="getPet",le="0.005"}`.
      const prefix = labels === '' ? '{' : `${labels.slice(0, -1)},`;
      let cumulative = 0;
      series.counts.forEach((count, index) => {
        cumulative += count;
        const bound = index < this.#bounds.length ? formatValue(this.#bounds[index] as number) : '+Inf';
        lines.push(`${name}_bucket${prefix}le="${bound}"} ${cumulative}`);
      });
      lines.push(`${name}_sum${labels} ${formatValue(series.sum)}`, `${name}_count${labels} ${series.count}`);
    }
  }
}

/** Renders families into one exposition text, ending in a line feed as the format requires. */
export function renderFamilies(families: readonly MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) family.render(lines);
  return `${lines.join('\n')}\n`;
}
