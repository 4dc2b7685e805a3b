import { describe, expect, it } from 'vitest';
import { nearestFraction, scaleIngredientLine, servingsFactor } from './scaling';

type Case = [line: string, factor: number, expected: string];

const cases: Record<string, Case[]> = {
  'whole numbers': [
    ['2 cups flour', 2, '4 cups flour'],
    ['3 large eggs', 2, '6 large eggs'],
    ['1 egg', 3, '3 egg'],
    ['2 cups flour', 0.5, '1 cups flour'],
    ['1 egg', 0.5, '1/2 egg'],
    ['3 carrots', 1 / 3, '1 carrots'],
    ['2 cups sugar', 1 / 3, '2/3 cups sugar'],
    ['4 cloves garlic', 0.75, '3 cloves garlic'],
    ['1 onion', 0.25, '1/4 onion'],
    ['3 tbsp butter', 0.5, '1 1/2 tbsp butter'],
    ['5 potatoes', 1.5, '7 1/2 potatoes'],
    ['12 oz pasta', 2, '24 oz pasta'],
    ['10 basil leaves', 0.5, '5 basil leaves'],
    ['15 cherry tomatoes', 1.2, '18 cherry tomatoes'],
    ['7 dates', 1.5, '10 1/2 dates'],
    ['1 teaspoon salt', 1 / 8, '1/8 teaspoon salt'],
    ['1 cup stock', 3 / 8, '3/8 cup stock'],
    ['150 shrimp', 2, '300 shrimp'],
    ['1 cup milk', 1.1, '1.1 cup milk'],
  ],
  'fractions': [
    ['1/2 cup milk', 2, '1 cup milk'],
    ['1/2 cup milk', 3, '1 1/2 cup milk'],
    ['3/4 cup sugar', 2, '1 1/2 cup sugar'],
    ['1/3 cup oil', 2, '2/3 cup oil'],
    ['2/3 cup oil', 1.5, '1 cup oil'],
    ['1/4 teaspoon pepper', 3, '3/4 teaspoon pepper'],
    ['1/8 teaspoon cayenne', 2, '1/4 teaspoon cayenne'],
    ['3/8 cup water', 2, '3/4 cup water'],
    ['1/2 teaspoon salt', 0.5, '1/4 teaspoon salt'],
    ['1/4 cup honey', 0.5, '1/8 cup honey'],
    ['3/4 cup cream', 1 / 3, '1/4 cup cream'],
    ['1/3 cup parsley', 3, '1 cup parsley'],
    ['1/2 lemon', 4, '2 lemon'],
    ['1⁄2 cup rice', 2, '1 cup rice'],
    ['1 / 2 cup rice', 3, '1 1/2 cup rice'],
    ['5/4 cups water', 2, '2 1/2 cups water'],
    ['1/2 cup butter', 1 / 3, '0.17 cup butter'],
  ],
  'unicode fractions keep unicode style': [
    ['½ cup milk', 2, '1 cup milk'],
    ['½ cup milk', 3, '1½ cup milk'],
    ['¼ tsp nutmeg', 2, '½ tsp nutmeg'],
    ['¾ cup sugar', 2, '1½ cup sugar'],
    ['⅓ cup oil', 2, '⅔ cup oil'],
    ['⅔ cup oil', 0.5, '⅓ cup oil'],
    ['⅛ tsp cloves', 3, '⅜ tsp cloves'],
    ['1½ cups flour', 2, '3 cups flour'],
    ['1½ cups flour', 0.5, '¾ cups flour'],
    ['1 ½ cups flour', 3, '4 ½ cups flour'],
    ['2¼ cups broth', 2, '4½ cups broth'],
    ['⅞ cup water', 2, '1¾ cup water'],
    ['⅕ cup syrup', 2, '0.4 cup syrup'],
    ['⅙ cup syrup', 3, '½ cup syrup'],
    ['½ cup milk', 0.1, '0.05 cup milk'],
  ],
  'mixed numbers': [
    ['1 1/2 cups flour', 2, '3 cups flour'],
    ['1 1/2 cups flour', 0.5, '3/4 cups flour'],
    ['2 1/4 cups broth', 2, '4 1/2 cups broth'],
    ['1 1/3 cups oats', 1.5, '2 cups oats'],
    ['1-1/2 cups sugar', 2, '3 cups sugar'],
    ['2-3/4 cups flour', 2, '5 1/2 cups flour'],
    ['1 and 1/2 cups water', 2, '3 cups water'],
    ['1 3/4 cups milk', 1 / 7, '1/4 cups milk'],
    ['3 1/2 tablespoons butter', 3, '10 1/2 tablespoons butter'],
    ['1 1/8 teaspoons yeast', 2, '2 1/4 teaspoons yeast'],
    ['2 2/3 cups flour', 0.75, '2 cups flour'],
  ],
  'decimals keep decimal style': [
    ['1.5 kg potatoes', 2, '3 kg potatoes'],
    ['1.5 kg potatoes', 1.5, '2.25 kg potatoes'],
    ['0.5 cup milk', 3, '1.5 cup milk'],
    ['.5 cup milk', 3, '1.5 cup milk'],
    ['0.25 tsp salt', 0.5, '0.13 tsp salt'],
    ['2.5 cups water', 1 / 3, '0.83 cups water'],
    ['1,5 kg Kartoffeln', 2, '3 kg Kartoffeln'],
    ['1,5 kg Kartoffeln', 1.5, '2,25 kg Kartoffeln'],
    ['0.75 l stock', 4, '3 l stock'],
    ['12.5 g yeast', 2, '25 g yeast'],
    ['33.4 ml vinegar', 1.5, '50.1 ml vinegar'],
    ['0.001 kg saffron', 1.5, '0.0015 kg saffron'],
  ],
  'metric units read as decimals': [
    ['200 g flour', 1.5, '300 g flour'],
    ['200 g flour', 1 / 3, '66.7 g flour'],
    ['250g butter', 0.5, '125g butter'],
    ['500 ml milk', 1.5, '750 ml milk'],
    ['1 kg beef', 0.75, '0.75 kg beef'],
    ['1 l water', 1.5, '1.5 l water'],
    ['100 grams sugar', 1.25, '125 grams sugar'],
    ['5 g salt', 0.3, '1.5 g salt'],
    ['1,000 g flour', 2, '2,000 g flour'],
    ['1,000 g flour', 1.5, '1,500 g flour'],
  ],
  'ranges scale both ends': [
    ['2-3 cloves garlic', 2, '4-6 cloves garlic'],
    ['2 - 3 cloves garlic', 2, '4 - 6 cloves garlic'],
    ['2–3 cloves garlic', 2, '4–6 cloves garlic'],
    ['2 to 3 cups stock', 2, '4 to 6 cups stock'],
    ['2 or 3 sprigs thyme', 2, '4 or 6 sprigs thyme'],
    ['1/2-1 tsp chili flakes', 2, '1-2 tsp chili flakes'],
    ['½-1 tsp chili flakes', 3, '1½-3 tsp chili flakes'],
    ['1 1/2-2 cups milk', 2, '3-4 cups milk'],
    ['1.5-2 kg pork', 2, '3-4 kg pork'],
    ['4-6 chicken thighs', 0.5, '2-3 chicken thighs'],
    ['1–2 tbsp sugar', 0.5, '1/2–1 tbsp sugar'],
    ['3~4 green onions', 2, '6~8 green onions'],
    ['1 to 1 1/2 cups water', 2, '2 to 3 cups water'],
  ],
  'package sizes in parentheses keep their size': [
    ['1 (14 oz) can tomatoes', 2, '2 (14 oz) can tomatoes'],
    ['2 (8 ounce) packages cream cheese', 1.5, '3 (8 ounce) packages cream cheese'],
    ['1 (14.5-ounce) can diced tomatoes', 3, '3 (14.5-ounce) can diced tomatoes'],
    ['1 (9 inch) pie crust', 2, '2 (9 inch) pie crust'],
    ['1 can (400 g) chickpeas', 2, '2 can (400 g) chickpeas'],
    ['1 jar (16 oz) salsa', 0.5, '1/2 jar (16 oz) salsa'],
    ['2 x 400 g tins tomatoes', 1.5, '3 x 400 g tins tomatoes'],
    ['2x400g tins tomatoes', 2, '4x400g tins tomatoes'],
    ['1 x 14-ounce can coconut milk', 2, '2 x 14-ounce can coconut milk'],
  ],
  'equivalent measures in parentheses scale with the unit': [
    ['2 cups (480 ml) milk', 2, '4 cups (960 ml) milk'],
    ['1 cup (240 ml) water', 0.5, '1/2 cup (120 ml) water'],
    ['1 stick (1/2 cup) butter', 2, '2 stick (1 cup) butter'],
    ['1 lb (450 g) beef', 1.5, '1 1/2 lb (675 g) beef'],
    ['1 cup (about 4 oz) walnuts', 2, '2 cup (about 8 oz) walnuts'],
    ['2 tbsp (30 ml) oil', 0.5, '1 tbsp (15 ml) oil'],
    ['250 g (2 cups) flour', 2, '500 g (4 cups) flour'],
    ['⅓ cup (80ml) milk', 3, '1 cup (240ml) milk'],
    ['2 cloves garlic, minced (about 1 tsp)', 2, '4 cloves garlic, minced (about 1 tsp)'],
  ],
  '"plus" amounts': [
    ['1 cup plus 2 tablespoons flour', 2, '2 cup plus 4 tablespoons flour'],
    ['1 lb + 4 oz beef', 2, '2 lb + 8 oz beef'],
    ['1 cup and 2 tbsp sugar', 0.5, '1/2 cup and 1 tbsp sugar'],
    ['1 cup and 2 eggs', 2, '2 cup and 2 eggs'],
    ['100g/3.5oz butter', 2, '200g/7oz butter'],
    ['1 cup / 240 ml milk', 0.5, '1/2 cup / 120 ml milk'],
  ],
  'non-quantities do not scale': [
    ['350°F oven', 2, '350°F oven'],
    ['180 °C', 2, '180 °C'],
    ['350 degrees', 2, '350 degrees'],
    ['9x13 inch pan', 2, '9x13 inch pan'],
    ['9 x 13 inch baking dish', 2, '9 x 13 inch baking dish'],
    ['9×13 pan', 2, '9×13 pan'],
    ['2% milk', 2, '2% milk'],
    ['2 percent milk', 3, '2 percent milk'],
    ['9-inch pie crust', 2, '9-inch pie crust'],
    ['8 inch springform pan', 2, '8 inch springform pan'],
    ['2 cm piece of ginger', 2, '2 cm piece of ginger'],
    ['1st batch of dough', 2, '1st batch of dough'],
    ['00 flour', 2, '00 flour'],
    ['1 cup 2% milk', 2, '2 cup 2% milk'],
    ['1 9-inch pie crust', 2, '2 9-inch pie crust'],
    ['1 12-ounce bag chocolate chips', 2, '2 12-ounce bag chocolate chips'],
  ],
  'lines with no amount stay as written': [
    ['salt to taste', 2, 'salt to taste'],
    ['a pinch of nutmeg', 2, 'a pinch of nutmeg'],
    ['Salt and pepper', 3, 'Salt and pepper'],
    ['fresh parsley, chopped', 0.5, 'fresh parsley, chopped'],
    ['one onion', 2, 'one onion'],
    ['', 2, ''],
    ['   ', 2, '   '],
    ['Olive oil, for frying', 2, 'Olive oil, for frying'],
    ['Flour, 2 cups', 2, 'Flour, 2 cups'],
    ['For the sauce:', 2, 'For the sauce:'],
  ],
  'lead-ins and bullets': [
    ['- 2 cups flour', 2, '- 4 cups flour'],
    ['• 1/2 cup sugar', 2, '• 1 cup sugar'],
    ['about 2 cups stock', 2, 'about 4 cups stock'],
    ['Juice of 1 lemon', 2, 'Juice of 2 lemon'],
    ['zest of 1/2 orange', 2, 'zest of 1 orange'],
    ['approx. 500 g beef', 0.5, 'approx. 250 g beef'],
    ['  3 eggs', 2, '  6 eggs'],
  ],
  'units glued to the number and text kept intact': [
    ['2tbsp olive oil', 1.5, '3tbsp olive oil'],
    ['1½tsp baking soda', 2, '3tsp baking soda'],
    ['2 cups flour, sifted (see note 1)', 2, '4 cups flour, sifted (see note 1)'],
    ['3 eggs, beaten with 2 tbsp milk', 2, '6 eggs, beaten with 2 tbsp milk'],
  ],
  'large results and rounding': [
    ['60 g butter', 2, '120 g butter'],
    ['75 cups flour', 1.5, '113 cups flour'],
    ['90 ml water', 1.5, '135 ml water'],
    ['33 cups stock', 1 / 3, '11 cups stock'],
    ['11 cookies', 1.5, '16 1/2 cookies'],
    ['13 prunes', 1 / 3, '4 1/3 prunes'],
    ['40 almonds', 1 / 3, '13 1/2 almonds'],
    ['41 almonds', 0.25, '10.25 almonds'],
  ],
  'factor of 1 or invalid leaves the line alone': [
    ['1 1/2 cups flour', 1, '1 1/2 cups flour'],
    ['1.50 kg', 1, '1.50 kg'],
    ['2 cups flour', 0, '2 cups flour'],
    ['2 cups flour', -1, '2 cups flour'],
    ['2 cups flour', Number.NaN, '2 cups flour'],
    ['2 cups flour', Number.POSITIVE_INFINITY, '2 cups flour'],
  ],
};

describe('scaleIngredientLine', () => {
  for (const [group, rows] of Object.entries(cases)) {
    describe(group, () => {
      it.each(rows)('%j × %d → %j', (line, factor, expected) => {
        expect(scaleIngredientLine(line, factor)).toBe(expected);
      });
    });
  }

  it('has a large table', () => {
    const n = Object.values(cases).reduce((sum, rows) => sum + rows.length, 0);
    expect(n).toBeGreaterThanOrEqual(100);
  });

  it('scaling up then down returns the original for common amounts', () => {
    const lines = ['1 1/2 cups flour', '3/4 cup sugar', '2 eggs', '1/3 cup oil', '2-3 cloves', '1.5 kg beef'];
    for (const line of lines) {
      expect(scaleIngredientLine(scaleIngredientLine(line, 2), 0.5)).toBe(line);
    }
  });

  it('never changes text after the amounts', () => {
    const line = '2 cups flour (about 250 g), sifted; 1 tsp salt';
    const out = scaleIngredientLine(line, 3);
    expect(out.endsWith(' flour (about 250 g), sifted; 1 tsp salt')).toBe(true);
    expect(out.startsWith('6 cups')).toBe(true);
  });
});

describe('nearestFraction', () => {
  it.each([
    [0.5, [0, 1, 2]],
    [0.3333, [0, 1, 3]],
    [0.34, [0, 1, 3]],
    [0.37, [0, 3, 8]],
    [0.66, [0, 2, 3]],
    [1.98, [2, 0, 1]],
    [2.01, [2, 0, 1]],
    [7.5, [7, 1, 2]],
    [10.5, [10, 1, 2]],
    [250.4, [250, 0, 1]],
  ] as const)('%d → %j', (value, expected) => {
    expect(nearestFraction(value)).toEqual(expected);
  });

  it.each([0.1, 0.06, 1.1, 0.9, 0, -1, 10.25])('%d has no cook fraction', (value) => {
    expect(nearestFraction(value)).toBeNull();
  });
});

describe('servingsFactor', () => {
  it.each([
    [4, 8, 2],
    [4, 2, 0.5],
    [6, 4, 4 / 6],
    [null, 8, 1],
    [0, 8, 1],
    [4, 0, 1],
    [4, Number.NaN, 1],
  ] as const)('base %s chosen %s → %d', (base, chosen, expected) => {
    expect(servingsFactor(base, chosen)).toBeCloseTo(expected);
  });
});
