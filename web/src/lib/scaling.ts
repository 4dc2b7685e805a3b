/**
 * Servings scaling of ingredient lines, done in the client (the API stores lines as written).
 *
 * What scales: the amount a line starts with (after an optional bullet, or a lead-in such as
 * "about" or "juice of"), written as a whole number, a decimal ("1.5", ".5", "1,5"), a
 * fraction ("1/2", "1⁄2"), a unicode fraction ("½"), a mixed number ("1 1/2", "1-1/2",
 * "1 and 1/2", "1½", "1 ½") or a range of these ("2-3", "2 – 3", "2 to 3", "2 or 3", "½-1");
 * both ends of a range scale. Also scaled: an equivalent measure in parentheses right after a
 * measuring unit ("2 cups (480 ml) milk"), an alternate after a slash ("100g/3.5oz") and an
 * amount joined by "plus" ("1 cup plus 2 tablespoons").
 *
 * What does not: a package size in parentheses after the count or after a container word
 * ("1 (14 oz) can", "1 can (14 oz)"); temperatures ("350°F", "180 degrees"), percentages
 * ("2% milk"), dimensions ("9x13 inch pan", "9 x 13") and lengths ("9-inch", "2 cm");
 * ordinals ("1st"); amounts written as words ("a pinch", "one"); any number later in the
 * line ("salt to taste", "1 cup 2% milk" keeps the 2%). A line that has no leading amount is
 * returned exactly as written, and so is every line when the factor is 1 or not a positive
 * finite number. Text around the amounts is never changed (no pluralisation).
 *
 * How results read: the output keeps the style of the input amount.
 * - Written as whole numbers or fractions: the nearest of n, n 1/2, n 1/3, n 2/3, n 1/4,
 *   n 3/4 or n k/8 (below 10; from 10 to 100 only n and n 1/2) when within 2% of the exact
 *   value, e.g. "1 1/2", "1/3", "3/4"; otherwise a decimal with
 *   at most 2 places ("0.1", "1.1"). Sixths are not offered: cooks measure them as
 *   "1/8 + 1/4"-ish amounts, so "0.17" is more honest than "1/6". From 100 up, whole numbers.
 * - Written with a unicode fraction ("½", "1½"): the same, in unicode ("1½", "¾").
 * - Written as a decimal, or followed by a metric unit (g, kg, ml, l, …): a decimal with at
 *   most 2 places below 10, 1 place below 100, whole numbers from 100 up ("2.25 kg",
 *   "66.7 g", "150 g"); a decimal comma stays a comma ("2,25 kg").
 * A value too small to show in 2 decimals keeps 2 significant digits instead of becoming 0.
 */

/** Relative tolerance for snapping a value to a cook's fraction ("within about 2%"). */
export const FRACTION_TOLERANCE = 0.02;

const UNICODE_FRACTIONS: Record<string, number> = {
  '½': 1 / 2,
  '⅓': 1 / 3,
  '⅔': 2 / 3,
  '¼': 1 / 4,
  '¾': 3 / 4,
  '⅕': 1 / 5,
  '⅖': 2 / 5,
  '⅗': 3 / 5,
  '⅘': 4 / 5,
  '⅙': 1 / 6,
  '⅚': 5 / 6,
  '⅐': 1 / 7,
  '⅛': 1 / 8,
  '⅜': 3 / 8,
  '⅝': 5 / 8,
  '⅞': 7 / 8,
  '⅑': 1 / 9,
  '⅒': 1 / 10,
};
const UNICODE_CLASS = Object.keys(UNICODE_FRACTIONS).join('');

/** Glyphs used for output, by "numerator/denominator". */
const UNICODE_OUT: Record<string, string> = {
  '1/2': '½',
  '1/3': '⅓',
  '2/3': '⅔',
  '1/4': '¼',
  '3/4': '¾',
  '1/8': '⅛',
  '3/8': '⅜',
  '5/8': '⅝',
  '7/8': '⅞',
};

type Style = 'fraction' | 'unicode' | 'decimal';

interface Amount {
  value: number;
  /** Index just past the amount in the source string. */
  end: number;
  style: Style;
  /** Decimal separator used by the source, for decimal-style output. */
  comma: boolean;
  /** Source wrote thousands separators ("1,000"). */
  grouped: boolean;
  /** Source wrote a space between a whole number and a unicode fraction ("1 ½"). */
  unicodeSpace: boolean;
}

// Each pattern is anchored (sticky) at the position being read.
const RE_MIXED_ASCII = /(\d+)(\s+and\s+|\s+|-)(\d+)\s?[/⁄]\s?(\d+)(?![\d/⁄])/y;
const RE_MIXED_UNICODE = new RegExp(`(\\d+)(\\s?)([${UNICODE_CLASS}])`, 'y');
const RE_FRACTION = /(\d+)\s?[/⁄]\s?(\d+)(?![\d/⁄])/y;
const RE_UNICODE = new RegExp(`[${UNICODE_CLASS}]`, 'y');
const RE_GROUPED = /\d{1,3}(?:,\d{3})+(?![\d,])(?:\.\d+)?/y;
const RE_DECIMAL = /(\d*)([.,])(\d+)(?![\d.,]*\d)/y;
const RE_INTEGER = /\d+/y;

function at(re: RegExp, s: string, i: number): RegExpExecArray | null {
  re.lastIndex = i;
  return re.exec(s);
}

/** Reads one amount starting exactly at index i, or returns null. */
function readAmount(s: string, i: number): Amount | null {
  const base = { comma: false, grouped: false, unicodeSpace: false };
  let m = at(RE_MIXED_ASCII, s, i);
  if (m) {
    const whole = Number(m[1]);
    const num = Number(m[3]);
    const den = Number(m[4]);
    // "1-1/2" is a mixed number only when the fraction is proper; "1/2-1" and "2-3/4"
    // style ranges are told apart by that (a range whose top is below its bottom is not one).
    if (den > 0 && num < den) {
      return { ...base, value: whole + num / den, end: i + m[0].length, style: 'fraction' };
    }
  }
  m = at(RE_MIXED_UNICODE, s, i);
  if (m) {
    return {
      ...base,
      value: Number(m[1]) + UNICODE_FRACTIONS[m[3]],
      end: i + m[0].length,
      style: 'unicode',
      unicodeSpace: m[2] !== '',
    };
  }
  m = at(RE_FRACTION, s, i);
  if (m) {
    const den = Number(m[2]);
    if (den === 0) return null;
    return { ...base, value: Number(m[1]) / den, end: i + m[0].length, style: 'fraction' };
  }
  m = at(RE_UNICODE, s, i);
  if (m) return { ...base, value: UNICODE_FRACTIONS[m[0]], end: i + 1, style: 'unicode' };
  m = at(RE_GROUPED, s, i);
  if (m) {
    const value = Number(m[0].replace(/,/g, ''));
    return {
      ...base,
      value,
      end: i + m[0].length,
      style: m[0].includes('.') ? 'decimal' : 'fraction',
      grouped: true,
    };
  }
  m = at(RE_DECIMAL, s, i);
  // A comma followed by exactly three digits is a thousands separator, handled above;
  // "1,5" is a decimal comma.
  if (m && !(m[2] === ',' && (m[1] === '' || m[3].length === 3))) {
    return {
      ...base,
      value: Number(`${m[1] || '0'}.${m[3]}`),
      end: i + m[0].length,
      style: 'decimal',
      comma: m[2] === ',',
    };
  }
  m = at(RE_INTEGER, s, i);
  if (m) return { ...base, value: Number(m[0]), end: i + m[0].length, style: 'fraction' };
  return null;
}

const RE_RANGE_SEP = /\s*(?:-|–|—|~)\s*|\s+(?:to|or)\s+/y;

interface Quantity {
  start: number;
  end: number;
  parts: Array<{ amount: Amount; start: number }>;
}

/** Reads an amount or a range of two amounts at index i. */
function readQuantity(s: string, i: number): Quantity | null {
  const first = readAmount(s, i);
  if (!first) return null;
  const parts = [{ amount: first, start: i }];
  const sep = at(RE_RANGE_SEP, s, first.end);
  if (sep) {
    const j = first.end + sep[0].length;
    const second = readAmount(s, j);
    if (second && second.value >= first.value) {
      parts.push({ amount: second, start: j });
      return { start: i, end: second.end, parts };
    }
  }
  return { start: i, end: first.end, parts };
}

// What may follow a number and make it something other than an amount.
const RE_NOT_AMOUNT = new RegExp(
  [
    String.raw`^\s?(?:°|º|˚|degrees?\b|deg\b)`, // temperatures
    String.raw`^\s?(?:%|percent\b|per\s?cent\b)`, // percentages
    String.raw`^(?:st|nd|rd|th)\b`, // ordinals
    String.raw`^(?:-|\s)?(?:inch(?:es)?\b|in\.|in\b|"|”|″|cm\b|mm\b|centimet(?:er|re)s?\b|millimet(?:er|re)s?\b)`, // lengths
    String.raw`^[:/]\d`, // times and dates ("10:30", "1/2/2024" is caught earlier)
    String.raw`^[A-Za-z]*\d`, // codes such as "2B3"
  ].join('|'),
  'i',
);

const RE_METRIC = /^\s?(?:g|gr|grams?|grammes?|kg|kgs|kilos?|kilograms?|mg|ml|mls|millilit(?:er|re)s?|cl|dl|l|lit(?:er|re)s?)\b/i;

// Units whose parenthesised follow-up is an equivalent measure that scales with them.
const MEASURE_UNITS = [
  'cups?',
  'c\\.',
  'tablespoons?',
  'tbsps?\\.?',
  'tbs\\.?',
  'tbl\\.?',
  'T\\b',
  'teaspoons?',
  'tsps?\\.?',
  't\\b',
  'ounces?',
  'oz\\.?',
  'fl\\.?\\s?oz\\.?',
  'fluid ounces?',
  'pounds?',
  'lbs?\\.?',
  'pints?',
  'pt\\.?',
  'quarts?',
  'qts?\\.?',
  'gallons?',
  'gal\\.?',
  'sticks?',
  'grams?',
  'grammes?',
  'g\\b',
  'kilograms?',
  'kgs?\\b',
  'kilos?',
  'milligrams?',
  'mg\\b',
  'millilit(?:er|re)s?',
  'ml\\b',
  'lit(?:er|re)s?',
  'l\\b',
  'dl\\b',
  'cl\\b',
];
const RE_MEASURE_UNIT = new RegExp(`\\s?(?:${MEASURE_UNITS.join('|')})`, 'iy');
const RE_SIZE_UNIT = new RegExp(`^[\\s-]?(?:${MEASURE_UNITS.join('|')})`, 'i');

// Lead-ins kept as written before the amount.
const RE_PREFIX =
  /^(\s*(?:[-*•·▪◦‣]\s*)?(?:(?:about|approx\.?|approximately|around|roughly|scant|heaping|heaped|generous|juice\s+of|zest\s+of|juice\s+and\s+zest\s+of|zest\s+and\s+juice\s+of)\s+)?)/i;

/** Scales one ingredient line by factor; see the module comment for the rules. */
export function scaleIngredientLine(line: string, factor: number): string {
  if (!Number.isFinite(factor) || factor <= 0 || factor === 1) return line;
  const prefix = RE_PREFIX.exec(line)?.[1] ?? '';
  const q = readQuantity(line, prefix.length);
  if (!q) return line;
  const rest = line.slice(q.end);
  // "00 flour" names a flour; a zero is never an amount to scale.
  if (q.parts.some((p) => p.amount.value === 0)) return line;
  // "2 x 400 g tins" counts packages of a size: only the count scales. "9 x 13 inch pan",
  // "9x13" and anything else after an "x" is a dimension and leaves the line alone.
  const mult = /^\s?[x×]\s?(?=\d)/.exec(rest);
  if (mult) {
    const size = readQuantity(line, q.end + mult[0].length);
    if (!size || q.parts.length > 1 || !RE_SIZE_UNIT.test(line.slice(size.end))) return line;
    return replaceAll(line, scaleQuantity(q, factor, false));
  }
  if (RE_NOT_AMOUNT.test(rest)) return line;

  const metric = RE_METRIC.test(rest);
  const edits: Edit[] = [];
  edits.push(...scaleQuantity(q, factor, metric));

  // After the unit: an equivalent measure in parentheses, then "plus" amounts.
  let pos = q.end;
  const unit = at(RE_MEASURE_UNIT, line, pos);
  if (unit) {
    pos += unit[0].length;
    const paren = /\s*\(\s*(?:about|approx\.?|approximately|around|roughly|~)?\s*/iy;
    const p = at(paren, line, pos);
    if (p && line.slice(pos).trimStart().startsWith('(')) {
      const inner = readQuantity(line, pos + p[0].length);
      if (inner && !RE_NOT_AMOUNT.test(line.slice(inner.end))) {
        const close = line.indexOf(')', inner.end);
        if (close > 0) {
          edits.push(...scaleQuantity(inner, factor, RE_METRIC.test(line.slice(inner.end))));
          pos = close + 1;
        }
      }
    }
  }
  // "1 cup plus 2 tablespoons", "1 lb + 4 oz", and alternates such as "100g/3.5oz"
  for (;;) {
    const plus = at(/\s*(?:plus|\+|and|\/)\s*/iy, line, pos);
    if (!plus) break;
    const next = readQuantity(line, pos + plus[0].length);
    if (!next) break;
    const after = line.slice(next.end);
    if (RE_NOT_AMOUNT.test(after)) break;
    const u = at(RE_MEASURE_UNIT, line, next.end);
    if (!u) break; // "1 cup and 2 eggs" is two ingredients; only measured amounts join
    edits.push(...scaleQuantity(next, factor, RE_METRIC.test(after)));
    pos = next.end + u[0].length;
  }

  return replaceAll(line, edits);
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function replaceAll(line: string, edits: Edit[]): string {
  let out = line;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  }
  return out;
}

function scaleQuantity(q: Quantity, factor: number, metric: boolean): Edit[] {
  return q.parts.map(({ amount, start }) => ({
    start,
    end: amount.end,
    text: formatAmount(amount.value * factor, metric && amount.style !== 'unicode' ? { ...amount, style: 'decimal' } : amount),
  }));
}

/** Formats a scaled value in the style of the source amount. */
function formatAmount(value: number, like: Amount): string {
  if (like.style === 'decimal') return formatDecimal(value, like);
  const frac = nearestFraction(value);
  if (!frac) return formatDecimal(value, like);
  const [whole, num, den] = frac;
  if (num === 0) return group(String(whole), like);
  if (like.style === 'unicode') {
    const glyph = UNICODE_OUT[`${num}/${den}`];
    if (whole === 0) return glyph;
    return `${whole}${like.unicodeSpace ? ' ' : ''}${glyph}`;
  }
  return whole === 0 ? `${num}/${den}` : `${whole} ${num}/${den}`;
}

/** [whole, numerator, denominator] of the nearest cook's fraction within tolerance. */
export function nearestFraction(value: number): [number, number, number] | null {
  if (!(value > 0)) return null;
  if (value >= 100) return [Math.round(value), 0, 1];
  const allowed = value < 10 ? [1, 2, 3, 4, 8] : [1, 2];
  // Simplest denominator first: 0.333 is 1/3 even if some eighth were closer.
  for (const den of allowed) {
    const whole = Math.floor(value);
    const n = Math.round((value - whole) * den);
    const candidate = whole + n / den;
    if (candidate === 0) continue;
    if (Math.abs(candidate - value) / value <= FRACTION_TOLERANCE) {
      if (n === den) return [whole + 1, 0, 1];
      const g = gcd(n, den);
      return [whole, n / g, den / g];
    }
  }
  return null;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function formatDecimal(value: number, like: Amount): string {
  const places = value >= 100 ? 0 : value >= 10 && like.style === 'decimal' ? 1 : 2;
  const rounded = round(value, places);
  let text: string;
  if (rounded === 0 && value > 0) {
    // Too small for 2 places: keep two significant digits rather than print 0.
    text = String(Number(value.toPrecision(2)));
  } else {
    text = String(rounded);
  }
  if (like.comma) text = text.replace('.', ',');
  return group(text, like);
}

function round(value: number, places: number): number {
  const f = 10 ** places;
  return Math.round(value * f + Number.EPSILON * f) / f;
}

function group(text: string, like: Amount): string {
  if (!like.grouped) return text;
  const [int, frac] = text.split('.');
  const g = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac ? `${g}.${frac}` : g;
}

/** Factor that takes a recipe from its stated servings to the chosen ones (1 when unknown). */
export function servingsFactor(base: number | null | undefined, chosen: number): number {
  if (!base || base <= 0 || !Number.isFinite(chosen) || chosen <= 0) return 1;
  return chosen / base;
}
