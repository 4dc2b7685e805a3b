package repo

import (
	"strings"

	"github.com/google/uuid"
)

// Who may read a recipe (issue 4; docs/security.md, "Recipe visibility"):
// PUBLIC ones anyone, SHARED ones their owner and the users they are shared
// with, PRIVATE ones their owner, all of them an ADMIN. This file is the one
// place that writes the rule: every query that returns, counts or tests
// recipes for a viewer takes its SQL from visibleTo or from the viewer's
// ReadParts, both built from the grants below, so a change of the rule is
// made here once and lists, totals, facets, cookbooks, meal plans and
// images follow it.

// Viewer is who reads: UserID nil for an anonymous request. It decides which
// recipes a query may return (see the rule above).
type Viewer struct {
	UserID *uuid.UUID
	Admin  bool
}

// readGrant is one clause of the rule: a predicate over recipe r. Grants to
// a signed-in user read the user's id from the placeholder me; the others
// ignore it. The grants one viewer holds never overlap, so a total is the
// sum of a count per grant; and each is written so that an index finds its
// recipes by itself (the OR of "may read" could only be answered by a scan
// of the whole table): PUBLIC ones by the partial indexes on
// visibility = 'PUBLIC', a user's own by owner_id, the shared ones by the
// GIN index on shared_with.
type readGrant struct {
	sql func(me string) string
	// narrow says the grant selects at most a user's few thousand recipes
	// through its own index, so a count tests the other filters in the row
	// rather than ANDing the index of a broad category with it (countWhere).
	narrow bool
}

var (
	readAll    = readGrant{sql: func(string) string { return "true" }}
	readPublic = readGrant{sql: func(string) string { return "r.visibility = '" + VisibilityPublic + "'" }}
	// The owner's PUBLIC recipes are readPublic's.
	readOwn = readGrant{narrow: true, sql: func(me string) string {
		return "r.owner_id = " + me + " AND r.visibility <> '" + VisibilityPublic + "'"
	}}
	// shared_with mirrors recipe_share (kept by a trigger), so the test needs
	// nothing but the row; it keeps its users while the recipe is PRIVATE or
	// PUBLIC, hence the visibility test. The owner's are readOwn's.
	readShared = readGrant{narrow: true, sql: func(me string) string {
		return "r.visibility = '" + VisibilityShared + "' AND r.shared_with @> ARRAY[" + me + "::uuid] AND r.owner_id <> " + me
	}}
)

// ReadPart is a part of what a viewer may read that is counted, and may be
// kept, apart from the others: the PUBLIC recipes are one part, the same
// for every viewer, so one count of them serves everybody; a signed-in
// user's own and shared recipes are their personal part.
type ReadPart struct {
	// Key names the part: two parts with the same key hold the same recipes
	// ("all", "public", or the user's id).
	Key    string
	user   *uuid.UUID
	grants []readGrant
}

var (
	allPart    = ReadPart{Key: "all", grants: []readGrant{readAll}}
	publicPart = ReadPart{Key: "public", grants: []readGrant{readPublic}}
)

// ReadParts returns the parts of what v may read. They never overlap: a
// recipe v may read is in exactly one of them.
func (v Viewer) ReadParts() []ReadPart {
	switch {
	case v.Admin:
		return []ReadPart{allPart}
	case v.UserID == nil:
		return []ReadPart{publicPart}
	}
	return []ReadPart{publicPart, {Key: v.UserID.String(), user: v.UserID, grants: []readGrant{readOwn, readShared}}}
}

// SumParts adds up count over the parts v may read: a total of v's.
func (v Viewer) SumParts(count func(ReadPart) (int64, error)) (int64, error) {
	var sum int64
	for _, p := range v.ReadParts() {
		n, err := count(p)
		if err != nil {
			return 0, err
		}
		sum += n
	}
	return sum, nil
}

// visibleTo returns the predicate "v may read recipe r", adding its
// arguments to args. Each kind of viewer gets its own SQL text, so each gets
// its own prepared statement and plan: the anonymous one can use the
// partial indexes on PUBLIC recipes, the admin's has no predicate at all.
func visibleTo(v Viewer, args *sqlArgs) string {
	var grants []readGrant
	var user *uuid.UUID // only a part of grants to the user reads their id
	for _, p := range v.ReadParts() {
		grants = append(grants, p.grants...)
		if p.user != nil {
			user = p.user
		}
	}
	return grantsSQL(grants, user, args)
}

// where returns the predicate "recipe r is in part p", adding its arguments
// to args.
func (p ReadPart) where(args *sqlArgs) string {
	return grantsSQL(p.grants, p.user, args)
}

// grantsSQL returns the OR of grants for user, adding the user's id to args
// once; user is nil when no grant reads it (an unused argument is an error).
func grantsSQL(grants []readGrant, user *uuid.UUID, args *sqlArgs) string {
	me := ""
	if user != nil {
		me = args.add(*user)
	}
	if len(grants) == 1 {
		return grants[0].sql(me)
	}
	terms := make([]string, len(grants))
	for i, g := range grants {
		terms[i] = "(" + g.sql(me) + ")"
	}
	return "(" + strings.Join(terms, " OR ") + ")"
}

// ReadableByAnyone says whether anyone, signed in or not, may read a recipe
// of this visibility: the rule's readPublic for a row already read (its
// image then has a stable, public address).
func ReadableByAnyone(visibility string) bool {
	return visibility == VisibilityPublic
}
