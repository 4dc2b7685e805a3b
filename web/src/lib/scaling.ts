/**
 * Servings scaling of ingredient lines: arithmetic and formatting over the amounts the API reads
 * (`amounts` of each ingredient; see IngredientAmount in the served OpenAPI document). This module
 * never decides what is an amount: the server's reader does, once, and `admin ingredients` prints
 * the same JSON for lines given offline, so both sides are tested against one vector file
 * (ingredient/testdata/scaling/vectors.json).
 *
 * How results read:
 * - A readable fraction is a whole number plus 1/8, 1/4, 1/3, 1/2, 2/3 or 3/4. When the exact
 *   result is within 2% of one, the fraction is written ("1 1/2", "2/3"), else a decimal with at
 *   most two places, rounded half up, trailing zeros dropped ("0.42", "1.2"); whole numbers plain.
 *   The same rule holds for every unit and every size of number.
 * - Each number keeps its input style: unicode fractions stay unicode ("1½", "¾"), "1-1/2" stays
 *   hyphenated, U+2044 stays U+2044, a decimal comma stays a comma, and a decimal input gives a
 *   decimal output when the result is exact in two places. A whole number at one end of a range
 *   takes the fraction style of the other end ("½-1" × 1.5 → "¾-1½").
 * - The word that agrees with an amount (IngredientAmount.word: a unit or counted noun, given by the
 *   server with both its forms, only in a line that reads as English) takes its other form when the
 *   amount crosses 1 ("1 cup" → "2 cups", "2 eggs" → "1 egg"). The client holds no table of words
 *   and never guesses a form. Nothing else in the line changes.
 * A factor of 1 (or one that is not a positive finite number), and a line without amounts, give
 * the text back byte for byte.
 */

import type { components } from './api.gen';

/** A quantity in an ingredient line, offsets in UTF-16 code units (the API's IngredientAmount). */
export type IngredientAmount = components['schemas']['IngredientAmount'];

/** A word that agrees with a number, with its form for one and for more than one (the API's WordForms). */
export type WordForms = components['schemas']['WordForms'];

/** How a number is written (IngredientAmount.style). */
export type AmountStyle = IngredientAmount['style'];

/** What scaleIngredient needs of an ingredient: its text and the amounts the API read in it. */
export interface ScalableIngredient {
  text: string;
  amounts?: IngredientAmount[];
}

/** Relative distance within which a result is written as a readable fraction. */
export const FRACTION_TOLERANCE = 0.02;

// Readable fractional parts, simplest first: on a tie the simpler one wins.
const PARTS: Array<[number, number]> = [
  [0, 1],
  [1, 2],
  [1, 3],
  [2, 3],
  [1, 4],
  [3, 4],
  [1, 8],
];

const UNICODE: Record<string, string> = {
  '1/2': '½',
  '1/3': '⅓',
  '2/3': '⅔',
  '1/4': '¼',
  '3/4': '¾',
  '1/8': '⅛',
};

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The factor from a recipe's servings (base; null when it states none) to the servings chosen. */
export function factorFor(base: number | null, value: number): number {
  if (base != null && base > 0) return value / base;
  return value > 0 ? value : 1;
}

/** Returns the ingredient's text with every amount multiplied by factor. */
export function scaleIngredient(ingredient: ScalableIngredient, factor: number): string {
  const { text, amounts } = ingredient;
  if (!Number.isFinite(factor) || factor <= 0 || factor === 1 || !amounts || amounts.length === 0) return text;
  const edits: Edit[] = [];
  for (const a of amounts) {
    const maxStyle = a.maxStyle ?? a.style;
    const lowEnd = a.max != null && a.valueEnd != null ? a.valueEnd : a.end;
    const low = formatAmount(a.value * factor, a.max != null ? rangeStyle(a.style, maxStyle) : a.style, joint(text.slice(a.start, lowEnd)));
    let shown = low.shown;
    if (a.max != null && a.valueEnd != null && a.maxStart != null) {
      const high = formatAmount(a.max * factor, rangeStyle(maxStyle, a.style), joint(text.slice(a.maxStart, a.end)));
      edits.push({ start: a.start, end: a.valueEnd, text: low.text });
      edits.push({ start: a.maxStart, end: a.end, text: high.text });
      shown = high.shown;
    } else {
      edits.push({ start: a.start, end: a.end, text: low.text });
    }
    agree(edits, a.word, a.max ?? a.value, shown);
    agree(edits, a.valueWord, a.value, low.shown);
  }
  edits.sort((x, y) => y.start - x.start);
  let out = text;
  let limit = text.length;
  for (const e of edits) {
    // Spans come from the server in order and never overlap; a stray one is skipped, not applied.
    if (e.start < 0 || e.end > limit || e.start > e.end) continue;
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    limit = e.start;
  }
  return out;
}

/**
 * The style of one end of a range: a whole number paired with a unicode fraction or a U+2044 one
 * writes its fractions the same way ("½-1" × 1.5 → "¾-1½", not "¾-1 1/2").
 */
function rangeStyle(own: AmountStyle, other: AmountStyle): AmountStyle {
  return own === 'integer' && (other === 'unicode' || other === 'unicode-spaced' || other === 'fraction-slash') ? other : own;
}

/** Adds the edit that writes word in the form for shown, when the amount crossed 1 from before. */
function agree(edits: Edit[], word: WordForms | undefined, before: number, shown: number) {
  if (word && before > 1 !== shown > 1) edits.push({ start: word.start, end: word.end, text: formFor(word, shown) });
}

/** The form of a word that agrees with n: its plural above 1, else its singular. */
export function formFor(word: Pick<WordForms, 'one' | 'other'>, n: number): string {
  return n > 1 ? word.other : word.one;
}

/**
 * What joins the whole number and the fraction of a mixed number as written ("1 and 1/2", "2 e 1/2",
 * "1 y 1/2"). The server read the span as one number, so a word inside it is its joining word,
 * whichever language the line is in.
 */
function joint(written: string): string | undefined {
  return /^\d+(\s+(?:[^\s\d]+\s+)?)\S/.exec(written)?.[1];
}

/**
 * Writes value in the given input style; shown is the number the text stands for. sep joins the
 * whole number and the fraction of a mixed number (a space unless the input wrote another).
 */
export function formatAmount(value: number, style: AmountStyle, sep = ' '): { text: string; shown: number } {
  const comma = style === 'decimal-comma';
  if ((style === 'decimal' || comma) && isExact(value)) return decimal(value, comma);
  const r = readable(value);
  if (!r) return decimal(value, comma);
  const [whole, num, den] = r;
  const shown = whole + num / den;
  if (num === 0) return { text: String(whole), shown };
  const w = whole === 0 ? '' : String(whole);
  switch (style) {
    case 'unicode':
      return { text: w + UNICODE[`${num}/${den}`], shown };
    case 'unicode-spaced':
      return { text: (w ? w + sep : '') + UNICODE[`${num}/${den}`], shown };
    case 'hyphen-fraction':
      return { text: (w ? `${w}-` : '') + `${num}/${den}`, shown };
    case 'fraction-slash':
      return { text: (w ? w + sep : '') + `${num}\u2044${den}`, shown };
    default:
      return { text: (w ? w + sep : '') + `${num}/${den}`, shown };
  }
}

/** The readable fraction [whole, numerator, denominator] nearest value within the tolerance. */
export function readable(value: number): [number, number, number] | null {
  if (!(value > 0) || !Number.isFinite(value)) return null;
  let best: [number, number, number] | null = null;
  let bestDiff = Infinity;
  const floor = Math.floor(value);
  for (const whole of [floor, floor + 1]) {
    for (const [num, den] of PARTS) {
      const candidate = whole + num / den;
      if (candidate <= 0) continue;
      const diff = Math.abs(candidate - value);
      // A hair of slack so that 0.98 × 1 counts as within 2% despite binary rounding.
      if (diff / value <= FRACTION_TOLERANCE + 1e-12 && diff < bestDiff - 1e-12) {
        best = [whole, num, den];
        bestDiff = diff;
      }
    }
  }
  return best;
}

/** Whether value has at most two decimal places (up to binary rounding). */
function isExact(value: number): boolean {
  const hundredths = value * 100;
  return Math.abs(hundredths - Math.round(hundredths)) < 1e-6;
}

/** Rounds half up to two places, dropping trailing zeros. */
function decimal(value: number, comma: boolean): { text: string; shown: number } {
  // toPrecision first, so 1.005 (stored as 1.00499…) rounds as written.
  let shown = Math.round(Number((value * 100).toPrecision(12))) / 100;
  // Too small for two places: two significant digits rather than a 0 that loses the ingredient.
  if (shown === 0 && value > 0) shown = Number(value.toPrecision(2));
  const text = String(shown);
  return { text: comma ? text.replace('.', ',') : text, shown };
}
