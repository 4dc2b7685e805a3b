// @vitest-environment jsdom
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { allByTestId, byTestId, click, key, render, type, type Rendered, act } from '../test/render';
import { PasswordRules } from './PasswordRules';
import { fromDrafts, SectionsEditor, toDrafts, type SectionDraft } from './SectionsEditor';
import { factorFor } from '../lib/scaling';
import { ServingsControl } from './ServingsControl';
import { unitFor } from '../lib/recipe';
import { ChipsInput, Field, FormError } from './ui';
import { RecipeImage } from './RecipeImage';
import { ApiError } from '../lib/api';

let r: Rendered | null = null;
afterEach(() => {
  r?.unmount();
  r = null;
});

function PasswordDemo() {
  const [pw, setPw] = useState('');
  return (
    <>
      <input data-testid="pw" value={pw} onChange={(e) => setPw(e.target.value)} />
      <PasswordRules password={pw} />
    </>
  );
}

describe('PasswordRules', () => {
  it('ticks each part as the user types', () => {
    r = render(<PasswordDemo />);
    const state = () => allByTestId(r!.container, 'password-rules')[0].querySelectorAll('li[data-ok="true"]').length;
    expect(state()).toBe(0);
    type(byTestId(r.container, 'pw') as HTMLInputElement, 'abc');
    expect(state()).toBe(1);
    type(byTestId(r.container, 'pw') as HTMLInputElement, 'abcDEF12');
    expect(state()).toBe(4);
    expect(byTestId(r.container, 'password-rules').getAttribute('aria-live')).toBe('polite');
  });
});

function ChipsDemo({ initial }: { initial: string[] }) {
  const [v, setV] = useState(initial);
  return <ChipsInput label="Tags" values={v} onChange={setV} suggestions={['soup', 'quick']} testId="tags" />;
}

describe('ChipsInput', () => {
  it('adds on Enter (also comma lists), ignores duplicates, removes by button', () => {
    r = render(<ChipsDemo initial={['soup']} />);
    const input = byTestId(r.container, 'tags-input') as HTMLInputElement;
    type(input, 'Quick, vegan');
    key(input, 'Enter');
    type(input, 'SOUP');
    key(input, 'Enter');
    const chips = () => [...r!.container.querySelectorAll('.chip span')].map((s) => s.textContent);
    expect(chips()).toEqual(['soup', 'Quick', 'vegan']);
    click(r.container.querySelector('[aria-label="Remove tag Quick"]')!);
    expect(chips()).toEqual(['soup', 'vegan']);
    // The input is labelled by the field label.
    const label = r.container.querySelector('label')!;
    expect(label.getAttribute('for')).toBe(input.id);
  });
});

function SectionsDemo({ onChange }: { onChange: (s: SectionDraft[]) => void }) {
  const [s, setS] = useState(() =>
    toDrafts([{ name: '', items: [{ id: 'i1', text: '1 cup flour' }, { id: 'i2', text: '2 eggs' }] }]),
  );
  return (
    <SectionsEditor
      kind="ingredient"
      sections={s}
      onChange={(n) => {
        setS(n);
        onChange(n);
      }}
    />
  );
}

describe('SectionsEditor', () => {
  it('Enter adds an item after the current one and ids survive reordering', () => {
    let last: SectionDraft[] = [];
    r = render(<SectionsDemo onChange={(s) => (last = s)} />);
    const inputs = () => allByTestId(r!.container, 'ingredient-input') as HTMLInputElement[];
    key(inputs()[0], 'Enter');
    expect(inputs()).toHaveLength(3);
    expect(document.activeElement).toBe(inputs()[1]);
    type(inputs()[1], '1 tsp salt');
    click(r.container.querySelector('[aria-label="Move Ingredient 3 up"]')!);
    expect(fromDrafts(last)).toEqual([
      { name: '', items: [{ id: 'i1', text: '1 cup flour' }, { id: 'i2', text: '2 eggs' }, { text: '1 tsp salt' }] },
    ]);
  });

  it('splits into named sections', () => {
    let last: SectionDraft[] = [];
    r = render(<SectionsDemo onChange={(s) => (last = s)} />);
    click(byTestId(r.container, 'split-ingredients'));
    type(byTestId(r.container, 'ingredient-section-name') as HTMLInputElement, 'Dough');
    click(byTestId(r.container, 'add-ingredient-section'));
    const inputs = allByTestId(r.container, 'ingredient-input') as HTMLInputElement[];
    type(inputs[2], 'jam');
    const names = allByTestId(r.container, 'ingredient-section-name') as HTMLInputElement[];
    type(names[1], 'Filling');
    expect(fromDrafts(last).map((s) => [s.name, s.items.map((i) => i.text)])).toEqual([
      ['Dough', ['1 cup flour', '2 eggs']],
      ['Filling', ['jam']],
    ]);
  });
});

function ServingsDemo({ base }: { base: number | null }) {
  const [v, setV] = useState(base ?? 1);
  return (
    <>
      <ServingsControl base={base} value={v} onChange={setV} />
      <output data-testid="factor">{factorFor(base, v)}</output>
    </>
  );
}

describe('ServingsControl', () => {
  it('changes servings by buttons and typing; factor follows', () => {
    r = render(<ServingsDemo base={4} />);
    click(byTestId(r.container, 'servings-increase'));
    click(byTestId(r.container, 'servings-increase'));
    expect(byTestId(r.container, 'factor').textContent).toBe('1.5');
    type(byTestId(r.container, 'servings-input') as HTMLInputElement, '2');
    expect(byTestId(r.container, 'factor').textContent).toBe('0.5');
    type(byTestId(r.container, 'servings-input') as HTMLInputElement, '0');
    expect(byTestId(r.container, 'factor').textContent).toBe('0.5');
  });

  it('can be emptied while typing, then takes the new number', () => {
    r = render(<ServingsDemo base={4} />);
    const input = byTestId(r.container, 'servings-input') as HTMLInputElement;
    act(() => input.focus());
    type(input, '');
    expect(input.value).toBe('');
    expect(byTestId(r.container, 'factor').textContent).toBe('1');
    type(input, '3');
    expect(input.value).toBe('3');
    expect(byTestId(r.container, 'factor').textContent).toBe('0.75');
    type(input, '');
    act(() => input.blur());
    expect(input.value).toBe('3');
    click(byTestId(r.container, 'servings-increase'));
    expect(input.value).toBe('4');
  });

  it('is labelled by the unit the servings count, in the form for the number shown', () => {
    const loaf = { servings: 1, servingsUnit: 'loaf', servingsUnitWord: { start: 0, end: 4, one: 'loaf', other: 'loaves' } };
    function LoafDemo() {
      const [v, setV] = useState(1);
      return <ServingsControl base={1} unit={unitFor(loaf, v)} value={v} onChange={setV} />;
    }
    r = render(<LoafDemo />);
    expect(r.container.querySelector('.servings-label')?.textContent).toBe('Loaf');
    const more = byTestId(r.container, 'servings-increase');
    expect(more.getAttribute('aria-label')).toBe('More loaf');
    click(more);
    expect(r.container.querySelector('.servings-label')?.textContent).toBe('Loaves');
    expect(more.getAttribute('aria-label')).toBe('More loaves');
  });

  it('is a multiplier when the recipe states no servings', () => {
    r = render(<ServingsDemo base={null} />);
    click(byTestId(r.container, 'servings-increase'));
    expect(byTestId(r.container, 'factor').textContent).toBe('1.5');
    expect(r.container.textContent).toContain('Scale ×');
  });
});

describe('Field and FormError', () => {
  it('ties label, hint and error to the control and lists other field errors', () => {
    const err = new ApiError(400, 'validation_failed', 'Check the form.', { email: 'taken', other: 'bad' });
    r = render(
      <>
        <FormError error={err} shown={['email']} />
        <Field label="Email" hint="We never share it." error={err.fields.email}>
          {(c) => <input {...c} data-testid="email" />}
        </Field>
      </>,
    );
    const input = byTestId(r.container, 'email');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = input.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(['We never share it.', 'Taken.']);
    const alert = byTestId(r.container, 'form-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toContain('Check the form.');
    expect(alert.textContent).toContain('other: Bad.');
    expect(alert.textContent).not.toContain('taken');
  });
});

describe('RecipeImage', () => {
  it('offers the renditions the API names (a map of name to address) as a srcset', () => {
    r = render(<RecipeImage src="/uploads/a.jpg" variants={{ thumb: '/uploads/a-thumb.jpg', medium: '/uploads/a-medium.jpg' }} alt="Stew" />);
    const img = r.container.querySelector('img')!;
    expect(img.getAttribute('srcset')).toBe('/uploads/a-thumb.jpg 320w, /uploads/a-medium.jpg 800w');
    expect(img.getAttribute('sizes')).toBeTruthy();
  });
  it('shows the image alone before the renditions exist', () => {
    r = render(<RecipeImage src="/uploads/a.jpg" variants={{}} alt="Stew" />);
    const img = r.container.querySelector('img')!;
    expect(img.getAttribute('srcset')).toBeNull();
    expect(img.getAttribute('sizes')).toBeNull();
  });
});
