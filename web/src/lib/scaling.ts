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
 * - An English unit or counted noun from a small table takes its singular or plural form when the
 *   amount crosses 1 ("1 cup" → "2 cups", "2 eggs" → "1 egg"); abbreviations and unknown words
 *   stay as written. Nothing else in the line changes.
 * A factor of 1 (or one that is not a positive finite number), and a line without amounts, give
 * the text back byte for byte.
 */

import type { components } from './api.gen';

/** A quantity in an ingredient line, offsets in UTF-16 code units (the API's IngredientAmount). */
export type IngredientAmount = components['schemas']['IngredientAmount'];

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
    agree(edits, text, a.unit ?? lastInTable(text, a.noun), a.max ?? a.value, shown);
    if (a.valueUnit) agree(edits, text, a.valueUnit, a.value, low.shown);
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
 * The word within span that the number counts: the head of an English noun phrase is its last noun
 * ("red bell pepper" → "pepper", "chicken stock cube" → "cube"), so the last word with two forms
 * in the table; but a word that portions what follows counts when it leads ("loaf brioche bread"
 * → "loaf", "cube chicken bouillon" → "cube").
 */
export function lastInTable(text: string, span: { start: number; end: number } | undefined) {
  if (!span) return undefined;
  const words = /[\p{L}\p{M}'’-]+/gu;
  words.lastIndex = span.start;
  let found: { start: number; end: number } | undefined;
  for (let m = words.exec(text); m && m.index < span.end; m = words.exec(text)) {
    const w = m[0].toLowerCase();
    if (!PLURAL.has(w) && !SINGULAR.has(w)) continue;
    found = { start: m.index, end: m.index + m[0].length };
    if (m.index === span.start && PORTIONS.has(PLURAL.has(w) ? w : SINGULAR.get(w)!)) break;
  }
  return found;
}

/**
 * The style of one end of a range: a whole number paired with a unicode fraction or a U+2044 one
 * writes its fractions the same way ("½-1" × 1.5 → "¾-1½", not "¾-1 1/2").
 */
function rangeStyle(own: AmountStyle, other: AmountStyle): AmountStyle {
  return own === 'integer' && (other === 'unicode' || other === 'unicode-spaced' || other === 'fraction-slash') ? other : own;
}

/** Adds the edit that makes word agree with an amount that went from before to shown, if any. */
function agree(edits: Edit[], text: string, word: { start: number; end: number } | undefined, before: number, shown: number) {
  // "1-inch piece", "15-ounce can": a unit joined by a hyphen is an adjective, with one form;
  // "tablespoon(s)" already has both.
  if (!word || text[word.start - 1] === '-' || text[word.end] === '(') return;
  const inflected = inflect(text.slice(word.start, word.end), before > 1, shown > 1);
  if (inflected != null) edits.push({ start: word.start, end: word.end, text: inflected });
}

/** What joins the whole number and the fraction of a mixed number as written ("1 and 1/2"). */
function joint(written: string): string | undefined {
  return /^\d+(\s+(?:and\s+)?)\S/.exec(written)?.[1];
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

/**
 * English units and counted nouns with two forms. Only these change, and only when the amount
 * crosses 1; abbreviations ("tsp", "oz", "g") have one form and are not listed, and neither are
 * metric words that other languages spell the same ("10 gram" in Danish, "1 kilogram" in Polish).
 */
const FORMS: Array<[singular: string, plural: string]> = [
  ['cup', 'cups'],
  ['tablespoon', 'tablespoons'],
  ['teaspoon', 'teaspoons'],
  ['ounce', 'ounces'],
  ['pound', 'pounds'],
  ['quart', 'quarts'],
  ['pint', 'pints'],
  ['gallon', 'gallons'],
  ['pinch', 'pinches'],
  ['dash', 'dashes'],
  ['drop', 'drops'],
  ['splash', 'splashes'],
  ['handful', 'handfuls'],
  ['clove', 'cloves'],
  ['can', 'cans'],
  ['tin', 'tins'],
  ['jar', 'jars'],
  ['bottle', 'bottles'],
  ['package', 'packages'],
  ['pack', 'packs'],
  ['packet', 'packets'],
  ['box', 'boxes'],
  ['bag', 'bags'],
  ['carton', 'cartons'],
  ['container', 'containers'],
  ['stick', 'sticks'],
  ['bunch', 'bunches'],
  ['head', 'heads'],
  ['sprig', 'sprigs'],
  ['stalk', 'stalks'],
  ['slice', 'slices'],
  ['piece', 'pieces'],
  ['sheet', 'sheets'],
  ['knob', 'knobs'],
  ['ear', 'ears'],
  ['inch', 'inches'],
  ['egg', 'eggs'],
  ['yolk', 'yolks'],
  ['onion', 'onions'],
  ['shallot', 'shallots'],
  ['lemon', 'lemons'],
  ['lime', 'limes'],
  ['orange', 'oranges'],
  ['apple', 'apples'],
  ['banana', 'bananas'],
  ['potato', 'potatoes'],
  ['tomato', 'tomatoes'],
  ['carrot', 'carrots'],
  ['avocado', 'avocados'],
  ['cucumber', 'cucumbers'],
  ['leek', 'leeks'],
  ['fillet', 'fillets'],
  ['breast', 'breasts'],
  ['thigh', 'thighs'],
  ['leaf', 'leaves'],
  ['tortilla', 'tortillas'],
  ['bun', 'buns'],
  ['block', 'blocks'],
  ['loaf', 'loaves'],
  ['envelope', 'envelopes'],
  ['scallion', 'scallions'],
  ['steak', 'steaks'],
  ['chop', 'chops'],
  ['cutlet', 'cutlets'],
  ['sausage', 'sausages'],
  ['drumstick', 'drumsticks'],
  ['wing', 'wings'],
  ['rib', 'ribs'],
  ['roll', 'rolls'],
  ['muffin', 'muffins'],
  ['bagel', 'bagels'],
  ['biscuit', 'biscuits'],
  ['cracker', 'crackers'],
  ['cookie', 'cookies'],
  ['strip', 'strips'],
  ['wedge', 'wedges'],
  ['radish', 'radishes'],
  ['beet', 'beets'],
  ['peach', 'peaches'],
  ['pear', 'pears'],
  ['plum', 'plums'],
  ['mango', 'mangoes'],
  ['anchovy', 'anchovies'],
  ['scallop', 'scallops'],
  ['bulb', 'bulbs'],
  ['cube', 'cubes'],
  ['tub', 'tubs'],
  ['pot', 'pots'],
  ['glass', 'glasses'],
  ['scoop', 'scoops'],
  ['dollop', 'dollops'],
  ['squeeze', 'squeezes'],
  ['rasher', 'rashers'],
  ['portion', 'portions'],
  ['pod', 'pods'],
  ['bean', 'beans'],
  ['stem', 'stems'],
  ['spear', 'spears'],
  ['floret', 'florets'],
  ['half', 'halves'],
  ['white', 'whites'],
  ['pepper', 'peppers'],
  ['chili', 'chilies'],
  ['chile', 'chiles'],
  ['chilli', 'chillies'],
  ['jalapeño', 'jalapeños'],
  ['jalapeno', 'jalapenos'],
  ['poblano', 'poblanos'],
  ['serrano', 'serranos'],
  ['habanero', 'habaneros'],
  ['eggplant', 'eggplants'],
  ['aubergine', 'aubergines'],
  ['courgette', 'courgettes'],
  ['parsnip', 'parsnips'],
  ['turnip', 'turnips'],
  ['russet', 'russets'],
  ['mushroom', 'mushrooms'],
  ['cabbage', 'cabbages'],
  ['tomatillo', 'tomatillos'],
  ['plantain', 'plantains'],
  ['olive', 'olives'],
  ['pickle', 'pickles'],
  ['gherkin', 'gherkins'],
  ['fig', 'figs'],
  ['date', 'dates'],
  ['apricot', 'apricots'],
  ['nectarine', 'nectarines'],
  ['clementine', 'clementines'],
  ['tangerine', 'tangerines'],
  ['grapefruit', 'grapefruits'],
  ['kiwi', 'kiwis'],
  ['pineapple', 'pineapples'],
  ['melon', 'melons'],
  ['strawberry', 'strawberries'],
  ['walnut', 'walnuts'],
  ['almond', 'almonds'],
  ['pecan', 'pecans'],
  ['chestnut', 'chestnuts'],
  ['marshmallow', 'marshmallows'],
  ['chicken', 'chickens'],
  ['hen', 'hens'],
  ['crust', 'crusts'],
  ['shell', 'shells'],
  ['pita', 'pitas'],
  ['baguette', 'baguettes'],
  ['croissant', 'croissants'],
  ['wrap', 'wraps'],
  ['patty', 'patties'],
  ['filet', 'filets'],
  ['loin', 'loins'],
  ['shank', 'shanks'],
  ['leg', 'legs'],
  ['tenderloin', 'tenderloins'],
  ['rack', 'racks'],
  ['prawn', 'prawns'],
  ['clam', 'clams'],
  ['mussel', 'mussels'],
  ['oyster', 'oysters'],
  ['lobster', 'lobsters'],
  ['sardine', 'sardines'],
  ['skewer', 'skewers'],
];
/** Words that portion the food named after them: when one leads a noun, it is what is counted. */
const PORTIONS = new Set(['loaf', 'cube', 'block', 'slice', 'piece', 'sheet', 'stick', 'head', 'bunch', 'sprig', 'stalk',
  'rasher', 'wedge', 'strip', 'knob', 'scoop', 'dollop', 'glass', 'pod', 'bulb', 'ear', 'portion', 'can', 'tin', 'jar',
  'bottle', 'package', 'pack', 'packet', 'box', 'bag', 'carton', 'container', 'tub', 'pot', 'envelope']);
const PLURAL = new Map(FORMS);
const SINGULAR = new Map(FORMS.map(([s, p]) => [p, s]));

/**
 * The other form of word when the amount crossed 1 (wasPlural → isPlural changed), keeping its
 * case; null when nothing changes.
 */
export function inflect(word: string, wasPlural: boolean, isPlural: boolean): string | null {
  if (wasPlural === isPlural) return null;
  const lower = word.toLowerCase();
  const other = isPlural ? PLURAL.get(lower) : SINGULAR.get(lower);
  if (other == null) return null;
  if (word === word.toUpperCase() && word !== lower) return other.toUpperCase();
  if (word[0] !== lower[0]) return other[0].toUpperCase() + other.slice(1);
  return other;
}
