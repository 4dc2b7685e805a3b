import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';

export interface ItemDraft {
  key: string;
  /** The server's id; sent back on save so mappings survive the edit. */
  id?: string;
  text: string;
}

export interface SectionDraft {
  key: string;
  name: string;
  items: ItemDraft[];
}

let seq = 0;
export const newKey = () => `k${++seq}`;

export function toDrafts(sections: Array<{ name: string; items: Array<{ id: string; text: string }> }>): SectionDraft[] {
  if (sections.length === 0) return [{ key: newKey(), name: '', items: [{ key: newKey(), text: '' }] }];
  return sections.map((s) => ({
    key: newKey(),
    name: s.name,
    items: s.items.map((i) => ({ key: newKey(), id: i.id, text: i.text })),
  }));
}

/** Sections for the API: blank items dropped, empty unnamed sections dropped. */
export function fromDrafts(sections: SectionDraft[]): Array<{ name: string; items: Array<{ id?: string; text: string }> }> {
  return sections
    .map((s) => ({
      name: s.name.trim(),
      items: s.items
        .filter((i) => i.text.trim() !== '')
        .map((i) => (i.id ? { id: i.id, text: i.text.trim() } : { text: i.text.trim() })),
    }))
    .filter((s) => s.items.length > 0 || s.name !== '');
}

/** Moves item (si, ii) by delta, crossing into the neighbouring section at the edges. */
export function moveItem(sections: SectionDraft[], si: number, ii: number, delta: -1 | 1): SectionDraft[] {
  const next = sections.map((s) => ({ ...s, items: [...s.items] }));
  const [item] = next[si].items.splice(ii, 1);
  const target = ii + delta;
  if (target < 0) {
    if (si === 0) return sections;
    next[si - 1].items.push(item);
  } else if (target > next[si].items.length) {
    if (si === next.length - 1) return sections;
    next[si + 1].items.unshift(item);
  } else {
    next[si].items.splice(target, 0, item);
  }
  return next;
}

export function moveSection(sections: SectionDraft[], si: number, delta: -1 | 1): SectionDraft[] {
  const t = si + delta;
  if (t < 0 || t >= sections.length) return sections;
  const next = [...sections];
  [next[si], next[t]] = [next[t], next[si]];
  return next;
}

/**
 * Editor for ingredient or instruction sections. A simple list is one unnamed section;
 * "Split into sections" names it and lets more be added.
 */
export function SectionsEditor(props: {
  kind: 'ingredient' | 'step';
  sections: SectionDraft[];
  onChange: (s: SectionDraft[]) => void;
  error?: string;
}) {
  const { kind, sections, onChange } = props;
  const noun = kind === 'ingredient' ? 'ingredient' : 'step';
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const sectioned = sections.length > 1 || sections.some((s) => s.name !== '');
  const [splitting, setSplitting] = useState(false);
  const showSections = sectioned || splitting;
  const refs = useRef(new Map<string, HTMLInputElement | HTMLTextAreaElement>());
  useEffect(() => {
    if (focusKey) {
      refs.current.get(focusKey)?.focus();
      setFocusKey(null);
    }
  }, [focusKey, sections]);

  const update = (si: number, fn: (s: SectionDraft) => SectionDraft) =>
    onChange(sections.map((s, i) => (i === si ? fn(s) : s)));

  const insertItems = (si: number, at: number, texts: string[]) => {
    const items = texts.map((text) => ({ key: newKey(), text }));
    update(si, (s) => ({ ...s, items: [...s.items.slice(0, at), ...items, ...s.items.slice(at)] }));
    setFocusKey(items[items.length - 1].key);
  };

  const onKey = (si: number, ii: number) => (e: KeyboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    // Enter adds the next ingredient; steps are textareas, where Ctrl/Cmd+Enter does it.
    if (e.key === 'Enter' && (kind === 'ingredient' || e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      insertItems(si, ii + 1, ['']);
    }
  };

  const onPaste = (si: number, ii: number) => (e: ClipboardEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const text = e.clipboardData.getData('text');
    const lines = text
      .split(/\r?\n/)
      .map((l) => l.replace(/^\s*(?:[-*•·]|\d+[.)])\s+/, '').trim())
      .filter(Boolean);
    if (lines.length < 2) return;
    // Pasting a whole list fills one item per line.
    e.preventDefault();
    const current = sections[si].items[ii];
    if (current.text.trim() === '') {
      update(si, (s) => {
        const items = [...s.items];
        items[ii] = { ...current, text: lines[0] };
        const rest = lines.slice(1).map((t) => ({ key: newKey(), text: t }));
        items.splice(ii + 1, 0, ...rest);
        return { ...s, items };
      });
    } else {
      insertItems(si, ii + 1, lines);
    }
  };

  const removeSection = (si: number) => {
    const s = sections[si];
    if (s.items.some((i) => i.text.trim()) && !window.confirm(`Remove the section “${s.name || 'unnamed'}” and its ${noun}s?`)) return;
    const next = sections.filter((_, i) => i !== si);
    onChange(next.length ? next : [{ key: newKey(), name: '', items: [{ key: newKey(), text: '' }] }]);
  };

  let number = 0;
  return (
    <div className="sections-editor" data-testid={`${noun}-editor`}>
      {props.error && <div className="field-error">{props.error}</div>}
      {sections.map((s, si) => (
        <fieldset key={s.key} className="section-draft">
          <legend className={showSections ? '' : 'visually-hidden'}>
            {showSections ? `Section ${si + 1}` : `${noun}s`}
          </legend>
          {showSections && (
            <div className="section-draft-head">
              <label className="grow">
                <span className="visually-hidden">Section {si + 1} name</span>
                <input
                  value={s.name}
                  placeholder={`Section name, e.g. ${kind === 'ingredient' ? 'For the sauce' : 'Make the dough'}`}
                  onChange={(e) => update(si, (x) => ({ ...x, name: e.target.value }))}
                  data-testid={`${noun}-section-name`}
                />
              </label>
              <button type="button" className="icon secondary" aria-label={`Move section ${si + 1} up`} disabled={si === 0} onClick={() => onChange(moveSection(sections, si, -1))}>
                ↑
              </button>
              <button
                type="button"
                className="icon secondary"
                aria-label={`Move section ${si + 1} down`}
                disabled={si === sections.length - 1}
                onClick={() => onChange(moveSection(sections, si, 1))}
              >
                ↓
              </button>
              <button type="button" className="icon secondary" aria-label={`Remove section ${si + 1}`} onClick={() => removeSection(si)}>
                ×
              </button>
            </div>
          )}
          <ol className="item-drafts">
            {s.items.map((it, ii) => {
              number++;
              const label = `${kind === 'ingredient' ? 'Ingredient' : 'Step'} ${number}`;
              const first = si === 0 && ii === 0;
              const last = si === sections.length - 1 && ii === s.items.length - 1;
              const common = {
                ref: (el: HTMLInputElement | HTMLTextAreaElement | null) => {
                  if (el) refs.current.set(it.key, el);
                  else refs.current.delete(it.key);
                },
                value: it.text,
                'aria-label': label,
                onKeyDown: onKey(si, ii),
                onPaste: onPaste(si, ii),
                'data-testid': `${noun}-input`,
              };
              return (
                <li key={it.key} className="item-draft">
                  {kind === 'ingredient' ? (
                    <input
                      {...common}
                      placeholder={ii === 0 ? 'e.g. 1 1/2 cups flour' : undefined}
                      onChange={(e) => update(si, (x) => ({ ...x, items: x.items.map((y) => (y.key === it.key ? { ...y, text: e.target.value } : y)) }))}
                    />
                  ) : (
                    <textarea
                      {...common}
                      rows={2}
                      onChange={(e) => update(si, (x) => ({ ...x, items: x.items.map((y) => (y.key === it.key ? { ...y, text: e.target.value } : y)) }))}
                    />
                  )}
                  <div className="item-buttons">
                    <button type="button" className="icon secondary" aria-label={`Move ${label} up`} disabled={first} onClick={() => onChange(moveItem(sections, si, ii, -1))}>
                      ↑
                    </button>
                    <button type="button" className="icon secondary" aria-label={`Move ${label} down`} disabled={last} onClick={() => onChange(moveItem(sections, si, ii, 1))}>
                      ↓
                    </button>
                    <button
                      type="button"
                      className="icon secondary"
                      aria-label={`Remove ${label}`}
                      onClick={() => update(si, (x) => ({ ...x, items: x.items.filter((y) => y.key !== it.key) }))}
                    >
                      ×
                    </button>
                  </div>
                </li>
              );
            })}
          </ol>
          <button type="button" className="secondary small-button" onClick={() => insertItems(si, s.items.length, [''])} data-testid={`add-${noun}`}>
            + Add {noun}
          </button>
        </fieldset>
      ))}
      <div className="actions">
        {showSections ? (
          <button
            type="button"
            className="secondary small-button"
            onClick={() => onChange([...sections, { key: newKey(), name: '', items: [{ key: newKey(), text: '' }] }])}
            data-testid={`add-${noun}-section`}
          >
            + Add section
          </button>
        ) : (
          <button type="button" className="link" onClick={() => setSplitting(true)} data-testid={`split-${noun}s`}>
            Split into sections
          </button>
        )}
        {showSections && sections.length === 1 && (
          <button
            type="button"
            className="link"
            onClick={() => {
              setSplitting(false);
              onChange([{ ...sections[0], name: '' }]);
            }}
          >
            Use one simple list
          </button>
        )}
      </div>
    </div>
  );
}
