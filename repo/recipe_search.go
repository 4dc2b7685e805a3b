package repo

import (
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
)

// SearchConfig is the text-search configuration of search_vector and of
// every query against it: English stemming ("chickens" finds "chicken").
const SearchConfig = "english"

// refreshSearchSQL derives search_vector and search_text from a recipe's
// title, ingredients and instructions (their copy in recipe_content, which
// triggers keep current statement by statement). Weights make a title
// match (A) rank above an ingredient match (B), and that above an
// instruction match (C).
const refreshSearchSQL = `
WITH doc AS (
	SELECT r.id, r.title,
	       coalesce(array_to_string(c.ingredient_texts, E'\n'), '') AS ingredients,
	       coalesce(array_to_string(c.instruction_texts, E'\n'), '') AS instructions
	FROM recipe r LEFT JOIN recipe_content c ON c.recipe_id = r.id WHERE r.id = ANY($1)
)
UPDATE recipe r SET
	search_vector = setweight(to_tsvector('` + SearchConfig + `', doc.title), 'A')
	             || setweight(to_tsvector('` + SearchConfig + `', doc.ingredients), 'B')
	             || setweight(to_tsvector('` + SearchConfig + `', doc.instructions), 'C'),
	search_text = lower(doc.title || E'\n' || doc.ingredients || E'\n' || doc.instructions)
FROM doc WHERE r.id = doc.id`

// addTermsSQL adds the recipes' lexemes to the search lexicon. Sorted, so
// concurrent writers adding the same new words lock them in one order.
const addTermsSQL = `
INSERT INTO search_term (term)
SELECT DISTINCT u.lexeme FROM recipe r, unnest(r.search_vector) AS u
WHERE r.id = ANY($1) AND length(u.lexeme) BETWEEN 3 AND 40 AND u.lexeme !~ '^[0-9]'
ORDER BY 1
ON CONFLICT DO NOTHING`

// RefreshRecipeSearch rewrites the search document (search_vector and
// search_text) of the recipes from their current text and adds their words
// to the search lexicon. Every write of a recipe's text calls it in the
// same transaction, so search never sees a half-written recipe; the seed
// calls it for many recipes at once.
func RefreshRecipeSearch(ctx context.Context, db DBTX, ids []uuid.UUID) error {
	if _, err := db.Exec(ctx, refreshSearchSQL, ids); err != nil {
		return wrap("refresh recipe search", err)
	}
	if _, err := db.Exec(ctx, addTermsSQL, ids); err != nil {
		return wrap("add search terms", err)
	}
	return nil
}

// maxQueryWords bounds the work one search can cause.
const maxQueryWords = 8

// queryWords splits a search into lower-case words of letters and digits.
func queryWords(q string) []string {
	words := strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	seen := map[string]bool{}
	out := words[:0]
	for _, w := range words {
		if len([]rune(w)) > 40 || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
		if len(out) == maxQueryWords {
			break
		}
	}
	return out
}

// expandSQL looks up, for each query word, its stemmed lexemes, whether
// every one of them occurs in some recipe, and the lexicon terms that look
// like it: those containing it (a fragment), and the closest by trigram
// similarity (a typo). Only terms nearly as close as the closest count:
// "chiken" is 0.5 from "chicken" but 0.33 from "chia" and 0.3 from
// "chill", which would otherwise double what it finds.
const expandSQL = `
SELECT q.ord::int,
       tsvector_to_array(to_tsvector('` + SearchConfig + `', q.word)) AS lexemes,
       NOT EXISTS (SELECT 1 FROM unnest(tsvector_to_array(to_tsvector('` + SearchConfig + `', q.word))) AS l(x)
                   WHERE NOT EXISTS (SELECT 1 FROM search_term t WHERE t.term = l.x)) AS known,
       ARRAY(SELECT c.term FROM (
                 SELECT t.term, similarity(t.term, q.word) AS sim,
                        max(similarity(t.term, q.word)) OVER () AS best,
                        strpos(t.term, q.word) > 0 AS contains
                 FROM search_term t
                 WHERE t.term % q.word OR (length(q.word) >= 3 AND t.term LIKE '%' || q.word || '%')) c
             WHERE c.contains OR c.sim >= 0.9 * c.best
             ORDER BY c.sim DESC, c.term LIMIT 4) AS similar
FROM unnest($1::text[]) WITH ORDINALITY AS q(word, ord)`

// TextQuery is a search as tsqueries (in their text form) over search_vector.
type TextQuery struct {
	// Any matches the words anywhere: title, ingredients or instructions.
	Any string
	// TitleOrIngredients is Any with every lexeme restricted to weights A
	// and B: the words found in the title and ingredients alone.
	TitleOrIngredients string
	// FewInTitles says that at most titleFewMatches recipes, of anyone,
	// have every word in their title: the first tier of the results takes
	// them from the title index at once (see listTier).
	FewInTitles bool
}

// SearchQuery turns what a person typed into a TextQuery; nil when q has
// no word to search for (empty, or only stop words such as "the").
//
// Each word must match (AND). A word whose stemmed form occurs in some
// recipe matches exactly that. Any other word is a typo or a fragment: it
// matches as a prefix ("chick" finds "chicken") or as any of the few
// lexicon words closest to it by trigram similarity ("chiken" finds
// "chicken") or containing it ("icken" finds "chicken"). The trigram work is
// done on the lexicon (one row per distinct word), never on the recipes, so
// it costs about the same at 100 recipes and at 100,000.
func SearchQuery(ctx context.Context, db DBTX, q string) (*TextQuery, error) {
	words := queryWords(q)
	if len(words) == 0 {
		return nil, nil
	}
	rows, err := db.Query(ctx, expandSQL, words)
	if err != nil {
		return nil, wrap("expand search", err)
	}
	defer rows.Close()
	type alt struct {
		lexeme string
		prefix bool
	}
	var groups [][]alt
	for rows.Next() {
		var ord int
		var lexemes, similar []string
		var known bool
		if err := rows.Scan(&ord, &lexemes, &known, &similar); err != nil {
			return nil, wrap("expand search", err)
		}
		switch {
		case len(lexemes) == 0:
			// A stop word: in no search_vector, so it must not be required.
		case known:
			// Every lexeme of the word (usually one) is required.
			for _, l := range lexemes {
				groups = append(groups, []alt{{lexeme: l}})
			}
		case utf8.RuneCountInString(words[ord-1]) < 3:
			// Unknown and too short to correct or to use as a prefix
			// ("o" of "o'brien" would match half the lexicon): ignored.
		default:
			g := []alt{{lexeme: lexemes[0], prefix: true}}
			if w := words[ord-1]; w != lexemes[0] {
				g = append(g, alt{lexeme: w, prefix: true})
			}
			for _, l := range similar {
				g = append(g, alt{lexeme: l})
			}
			groups = append(groups, g)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("expand search", err)
	}
	if len(groups) == 0 {
		return nil, nil
	}
	build := func(weights string) string {
		parts := make([]string, len(groups))
		for i, g := range groups {
			alts := make([]string, len(g))
			for j, a := range g {
				alts[j] = tsLexeme(a.lexeme, a.prefix, weights)
			}
			parts[i] = "(" + strings.Join(alts, " | ") + ")"
		}
		return strings.Join(parts, " & ")
	}
	tq := &TextQuery{Any: build(""), TitleOrIngredients: build("AB")}
	// Counted only as far as the bound: a common word's titles are
	// thousands, and all that matters is whether they are few.
	var inTitles int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM (SELECT FROM recipe r WHERE r.title_vector @@ $1::tsquery LIMIT $2) m`,
		tq.Any, titleFewMatches+1).Scan(&inTitles); err != nil {
		return nil, wrap("count title matches", err)
	}
	tq.FewInTitles = inTitles <= titleFewMatches
	return tq, nil
}

// tsLexeme quotes one lexeme for the tsquery input syntax, as a prefix
// match when prefix is set, restricted to the given weights.
func tsLexeme(s string, prefix bool, weights string) string {
	q := "'" + strings.NewReplacer(`\`, `\\`, `'`, `''`).Replace(s) + "'"
	if prefix || weights != "" {
		q += ":"
		if prefix {
			q += "*"
		}
		q += weights
	}
	return q
}
