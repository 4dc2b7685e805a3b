/**
 * Durations written in a step ("simmer for 20 minutes", "1 hour", "10–15 min", "1½ hours",
 * "1 hour 30 minutes"), for cooking mode's timers. A range starts its timer at the lower bound:
 * the cook checks then, and can add more.
 */
export interface Duration {
  /** Where the words are in the text. */
  start: number;
  end: number;
  text: string;
  /** Seconds of the (lower bound of the) duration. */
  seconds: number;
}

const FRACTIONS: Record<string, number> = { '½': 0.5, '¼': 0.25, '¾': 0.75, '⅓': 1 / 3, '⅔': 2 / 3 };
const NUM = String.raw`(?:\d+(?:[.,]\d+)?(?:\s*[½¼¾⅓⅔])?|[½¼¾⅓⅔]|\d+\s+\d\/\d|\d\/\d|an?|one|two|three|four|five|six|ten|fifteen|twenty|thirty|forty[- ]five)`;
const UNIT = String.raw`(?:hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)`;
const ONE = String.raw`(${NUM})(?:\s*(?:-|–|—|to|or)\s*(${NUM}))?\s*(${UNIT})\b`;
const PATTERN = new RegExp(String.raw`(?<![\w.,/])${ONE}(?:\s*(?:and\s+)?(${NUM})\s*(${UNIT})\b)?`, 'giu');

const WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, ten: 10, fifteen: 15, twenty: 20, thirty: 30,
  'forty-five': 45, 'forty five': 45,
};

function number(s: string): number {
  const t = s.trim().toLowerCase();
  if (t in WORDS) return WORDS[t];
  if (t in FRACTIONS) return FRACTIONS[t];
  const mixed = /^(\d+)\s+(\d)\/(\d)$/.exec(t);
  if (mixed) return Number(mixed[1]) + Number(mixed[2]) / Number(mixed[3]);
  const frac = /^(\d)\/(\d)$/.exec(t);
  if (frac) return Number(frac[1]) / Number(frac[2]);
  const withGlyph = /^(\d+(?:[.,]\d+)?)\s*([½¼¾⅓⅔])$/u.exec(t);
  if (withGlyph) return Number(withGlyph[1].replace(',', '.')) + FRACTIONS[withGlyph[2]];
  return Number(t.replace(',', '.'));
}

function unitSeconds(u: string): number {
  const t = u.toLowerCase();
  if (t.startsWith('h')) return 3600;
  if (t.startsWith('m')) return 60;
  return 1;
}

export function findDurations(text: string): Duration[] {
  const out: Duration[] = [];
  for (const m of text.matchAll(PATTERN)) {
    const [whole, lo, hi, unit, extraNum, extraUnit] = m;
    // A bare "m", "h" or "s" only right after a digit ("20m", "1h"): "2 m" in prose is a length.
    if (unit.length === 1 && !whole.includes((hi ?? lo) + unit)) continue;
    let seconds = number(lo) * unitSeconds(unit);
    if (extraNum && extraUnit && unitSeconds(extraUnit) < unitSeconds(unit)) seconds += number(extraNum) * unitSeconds(extraUnit);
    if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 48 * 3600) continue;
    const start = m.index ?? 0;
    out.push({ start, end: start + whole.length, text: whole, seconds: Math.round(seconds) });
  }
  return out;
}

/** "1:05:00", "20:00", "0:45". */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}
