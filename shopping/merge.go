// Package shopping builds shopping lists: it reads recipe lines into
// amounts of foods, merges them with a list's items, converts units within
// their family and assigns aisles. It is pure: the handlers load a list,
// call Merge, and store what it returns.
package shopping

import (
	"sort"

	"github.com/google/uuid"
)

// Source is one contribution to an item: a recipe's line scaled to the
// servings it was added for, or an amount the user typed (RecipeID nil).
// Quantity and Unit are as written (after scaling); nil Quantity is a line
// without an amount ("salt to taste").
type Source struct {
	RecipeID    *uuid.UUID
	RecipeTitle string
	Servings    *float64
	Line        string
	Quantity    *float64
	Unit        string
}

// Item is a line of a shopping list. Its amount is always the sum of its
// sources (Total); Food is the key merging goes by ("" for an item that is
// not a food the reader knows, which never merges).
type Item struct {
	ID      uuid.UUID
	Text    string
	Food    string
	Checked bool
	Aisle   string
	Sources []Source
}

// Addition is a line to put on a list.
type Addition struct {
	Source Source
	// Food is the name the reader found ("eggs"); "" when it found none.
	Food string
}

// AdditionFromLine reads a recipe's ingredient line scaled by factor into
// an addition. A line the reader finds no food in keeps its whole text.
func AdditionFromLine(line string, factor float64, recipeID *uuid.UUID, title string, servings *float64) Addition {
	l := readLine(line)
	var q *float64
	if l.Quantity != nil {
		v := *l.Quantity * factor
		q = &v
	}
	return Addition{
		Food:   l.Food,
		Source: Source{RecipeID: recipeID, RecipeTitle: title, Servings: servings, Line: line, Quantity: q, Unit: l.Unit},
	}
}

// ManualAddition reads what a user typed ("2 l milk", "bin bags").
func ManualAddition(text string) Addition {
	return AdditionFromLine(text, 1, nil, "", nil)
}

// Merge adds each addition to items and returns the items changed or
// created, in the order first touched. An addition joins an unchecked item
// of the same food whose amounts are of the same family, both sides with
// an amount; otherwise it becomes an item of its own. Nothing is dropped:
// every addition ends as a source of exactly one item. newID names new
// items; corrections are the user's aisles by food key.
func Merge(items []*Item, additions []Addition, corrections map[string]string, newID func() uuid.UUID) []*Item {
	var touched []*Item
	seen := map[*Item]bool{}
	touch := func(it *Item) {
		if !seen[it] {
			seen[it] = true
			touched = append(touched, it)
		}
	}
	for _, a := range additions {
		key := FoodKey(a.Food)
		if target := mergeTarget(items, key, a.Source); target != nil {
			target.Sources = append(target.Sources, a.Source)
			touch(target)
			continue
		}
		text := a.Food
		if text == "" {
			text = a.Source.Line
		}
		it := &Item{ID: newID(), Text: text, Food: key, Aisle: Aisle(key, corrections), Sources: []Source{a.Source}}
		items = append(items, it)
		touch(it)
	}
	return touched
}

// mergeTarget finds the item an amount of food may be added to.
func mergeTarget(items []*Item, key string, s Source) *Item {
	if key == "" || s.Quantity == nil {
		return nil
	}
	fam, _ := FamilyOf(s.Unit)
	for _, it := range items {
		if it.Checked || it.Food != key || len(it.Sources) == 0 {
			continue
		}
		ok := true
		for _, o := range it.Sources {
			if f, _ := FamilyOf(o.Unit); o.Quantity == nil || f != fam {
				ok = false
				break
			}
		}
		if ok {
			return it
		}
	}
	return nil
}

// Total is an item's amount: its sources summed within their family and
// shown in the unit the system asks for (see display), rounded for a
// list. ok is false for an item with a source without an amount, or (never
// made by Merge, but possible after edits) sources of different families.
func Total(sources []Source, system string) (quantity float64, unit string, ok bool) {
	if len(sources) == 0 {
		return 0, "", false
	}
	fam, _ := FamilyOf(sources[0].Unit)
	var base float64
	byUnit := map[string]float64{}
	for _, s := range sources {
		f, size := FamilyOf(s.Unit)
		if s.Quantity == nil || f != fam {
			return 0, "", false
		}
		base += *s.Quantity * size
		byUnit[s.Unit] += *s.Quantity * size
	}
	written := make([]string, 0, len(byUnit))
	for u := range byUnit {
		written = append(written, u)
	}
	// The unit most of the amount was written in first; ties by name, so
	// the choice does not depend on map order.
	sort.Slice(written, func(i, j int) bool {
		if byUnit[written[i]] != byUnit[written[j]] {
			return byUnit[written[i]] > byUnit[written[j]]
		}
		return written[i] < written[j]
	})
	if len(sources) == 1 && system == AsWritten {
		return Round(*sources[0].Quantity), sources[0].Unit, true
	}
	q, u := display(fam, base, system, written)
	return Round(q), u, true
}

// RemoveRecipe takes the sources of the recipe off the items; the items
// left without a source are returned in gone, the others whose amount
// changed in changed.
func RemoveRecipe(items []*Item, recipeID uuid.UUID) (changed, gone []*Item) {
	for _, it := range items {
		kept := it.Sources[:0:0]
		for _, s := range it.Sources {
			if s.RecipeID == nil || *s.RecipeID != recipeID {
				kept = append(kept, s)
			}
		}
		if len(kept) == len(it.Sources) {
			continue
		}
		it.Sources = kept
		if len(kept) == 0 {
			gone = append(gone, it)
		} else {
			changed = append(changed, it)
		}
	}
	return changed, gone
}
