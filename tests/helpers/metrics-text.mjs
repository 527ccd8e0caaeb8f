// @ts-check
// Prometheus's text exposition format (version 0.0.4), read strictly enough to fail on a
// malformed line: # HELP and # TYPE comments, then samples `name{label="value",…} value`.

/** @typedef {{ name: string, labels: Record<string, string>, value: number }} Sample */

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: -?\d+)?$/;
// Go's ParseFloat, which Prometheus reads values with: NaN and Inf in any case.
const VALUE = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|[+-]?inf|nan)$/i;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/g;
const COMMENT = /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/;

/** @param {string} text */
const valueOf = (text) => (/^nan$/i.test(text) ? NaN : /inf$/i.test(text) ? (text.startsWith("-") ? -Infinity : Infinity) : Number(text));

/**
 * Every sample of `text`; throws on a line that is neither a comment nor a sample.
 * @param {string} text @returns {Sample[]}
 */
export function parseMetrics(text) {
  /** @type {Sample[]} */
  const samples = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      if (!COMMENT.test(line)) throw new Error(`malformed comment: ${line}`);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (match === null || !VALUE.test(match[3])) throw new Error(`malformed sample: ${line}`);
    /** @type {Record<string, string>} */
    const labels = {};
    for (const label of (match[2] ?? "").matchAll(LABEL)) labels[label[1]] = label[2];
    samples.push({ name: match[1], labels, value: valueOf(match[3]) });
  }
  return samples;
}

/**
 * The value of the sample `name` whose labels include `labels`, or undefined.
 * @param {Sample[]} samples @param {string} name @param {Record<string, string>} [labels]
 */
export function sampleValue(samples, name, labels = {}) {
  return samples.find((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value;
}
