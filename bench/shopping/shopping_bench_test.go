// Package shopping measures the shopping list's two costly paths through
// the real API on a loopback listener and a fresh database.
//
// BenchmarkListFromPlan builds a list from a 7-day plan of 21 recipes
// (three meals a day, twelve lines each, foods shared between recipes in
// several units): POST /api/shopping-lists/:id/plan reads the plan, reads
// and scales every recipe, merges the lines and writes the items.
//
// BenchmarkEventFanOut keeps 200 event streams open and measures the time
// from a committed change to the last stream that hears of it, through
// PostgreSQL's LISTEN/NOTIFY and the API's hub.
//
//	go test ./bench/shopping -run '^$' -bench . -benchtime 20x
package shopping

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"larder/config"
	"larder/handlers"
	"larder/jobs"
	"larder/repo"
	"larder/repo/repotest"
	"larder/token"
)

type service struct {
	base   string
	db     *pgxpool.Pool
	user   repo.User
	token  string
	events *handlers.ListEvents
}

func start(b *testing.B) *service {
	b.Helper()
	db := repotest.DB(b)
	cfg, err := config.Load(func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	cfg.Env = "test"
	dir := b.TempDir()
	cfg.DataDir, cfg.UploadPath, cfg.BackupPath = dir, dir+"/uploads", dir+"/backups"
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	queue, err := jobs.NewQueue(db, logger)
	if err != nil {
		b.Fatal(err)
	}
	issuer := &token.Issuer{AccessSecret: []byte("bench-access"), RefreshSecret: []byte("bench-refresh"), AccessTTL: time.Hour, RefreshTTL: time.Hour}
	events := handlers.NewListEvents()
	ctx, cancel := context.WithCancel(context.Background())
	go events.Follow(ctx, func(ctx context.Context) (*pgx.Conn, error) {
		return pgx.ConnectConfig(ctx, db.Config().ConnConfig.Copy())
	}, logger)
	app := handlers.New(handlers.Deps{Config: cfg, DB: db, Queue: queue, Tokens: issuer, Logger: logger, Version: "bench", ListEvents: events})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	go func() { _ = app.Listener(ln) }()
	b.Cleanup(func() { _ = app.ShutdownWithTimeout(5 * time.Second) })
	b.Cleanup(cancel) // runs first: the streams end, the shutdown does not wait for them
	<-events.Listening()
	u := repotest.CreateUser(b, db, repo.RoleUser)
	tok, err := issuer.Access(u.ID, u.Role, u.SessionVersion)
	if err != nil {
		b.Fatal(err)
	}
	return &service{base: "http://" + ln.Addr().String(), db: db, user: u, token: tok, events: events}
}

func (s *service) do(b *testing.B, method, path, body string) {
	b.Helper()
	req, _ := http.NewRequest(method, s.base+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode >= 300 {
		b.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
}

// foods are what the recipes are made of, each with the ways recipes write it.
var foods = [][]string{
	{"1 cup milk", "200 ml milk", "2 tbsp milk"},
	{"2 large eggs, beaten", "3 eggs", "1 egg"},
	{"1 onion, chopped", "2 onions", "1 red onion"},
	{"2 cloves garlic", "3 cloves garlic, minced"},
	{"200 g flour", "1 cup all-purpose flour", "2 tbsp flour"},
	{"1 tbsp olive oil", "2 tbsp olive oil", "60 ml olive oil"},
	{"1 tsp salt", "salt to taste", "1/2 tsp salt"},
	{"500 g potatoes", "1 lb potatoes"},
	{"400 g chicken breast", "1 lb chicken breast"},
	{"1 (14 oz) can tomatoes", "400 g tomatoes", "3 tomatoes"},
	{"50 g butter", "2 tbsp butter", "1/2 cup butter"},
	{"100 g cheddar", "1 cup grated cheddar"},
	{"1 tsp ground cumin", "1 tbsp ground cumin"},
	{"250 ml chicken stock", "1 l chicken stock"},
	{"1 bunch parsley", "2 tbsp chopped parsley"},
	{"200 g rice", "1 cup rice"},
	{"1 lemon", "2 tbsp lemon juice"},
	{"1 carrot", "2 carrots, diced"},
}

// BenchmarkListFromPlan: one operation builds a new list from the week.
func BenchmarkListFromPlan(b *testing.B) {
	s := start(b)
	ctx := context.Background()
	plan, err := repo.DefaultMealPlan(ctx, s.db, s.user.ID)
	if err != nil {
		b.Fatal(err)
	}
	monday := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	lines := 0
	for r := range 21 {
		var items []repo.Item
		for k := range 12 {
			f := foods[(r*5+k)%len(foods)]
			items = append(items, repo.Item{Text: f[(r+k)%len(f)]})
		}
		lines += len(items)
		four := 4
		id, err := repo.CreateRecipe(ctx, s.db, s.user.ID, repo.RecipeInput{Title: fmt.Sprintf("Recipe %d", r), Visibility: repo.VisibilityPrivate,
			Servings: &four, IngredientSections: []repo.Section{{Items: items}}})
		if err != nil {
			b.Fatal(err)
		}
		servings := float64(2 + r%4)
		if _, err := repo.CreateMealPlanEntry(ctx, s.db, plan.ID, s.user.ID, repo.MealPlanEntryInput{
			Day: monday.AddDate(0, 0, r/3), Meal: repo.Meals[r%3], RecipeID: &id, Servings: &servings}); err != nil {
			b.Fatal(err)
		}
	}
	var listIDs []uuid.UUID
	for range b.N {
		id, err := repo.CreateShoppingList(ctx, s.db, s.user.ID, "Week", "metric")
		if err != nil {
			b.Fatal(err)
		}
		listIDs = append(listIDs, id)
	}
	b.ResetTimer()
	for i := range b.N {
		s.do(b, "POST", "/api/shopping-lists/"+listIDs[i].String()+"/plan", `{"from":"2026-03-02","to":"2026-03-08"}`)
	}
	b.StopTimer()
	items, err := repo.ListShoppingItems(ctx, s.db, listIDs[0], false)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(lines), "lines/op")
	b.ReportMetric(float64(len(items)), "items/op")
}

// stream is one open event stream; heard receives a value per change event.
type stream struct{ heard chan struct{} }

func (s *service) open(b *testing.B, ctx context.Context, client *http.Client, listID uuid.UUID) *stream {
	b.Helper()
	req, _ := http.NewRequestWithContext(ctx, "GET", s.base+"/api/shopping-lists/"+listID.String()+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+s.token)
	resp, err := client.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	if resp.StatusCode != 200 {
		b.Fatalf("events: %d", resp.StatusCode)
	}
	st := &stream{heard: make(chan struct{}, 1024)}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() && sc.Text() != "event: ready" {
	}
	go func() {
		defer resp.Body.Close()
		for sc.Scan() {
			if sc.Text() == "event: change" {
				st.heard <- struct{}{}
			}
		}
	}()
	return st
}

// BenchmarkEventFanOut: 200 open streams; one operation is a change and
// its delivery to every stream that follows the changed list(s). Reported:
// the latency to the last stream (ms), and its percentiles over the run.
func BenchmarkEventFanOut(b *testing.B) {
	const open = 200
	cases := []struct {
		name  string
		lists int // 200 lists open once each, or one list open on 200 devices
	}{{"200 lists, each changed", open}, {"1 list on 200 devices", 1}}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s := start(b)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: open, MaxConnsPerHost: 0}}
			lists := make([]uuid.UUID, c.lists)
			for i := range lists {
				id, err := repo.CreateShoppingList(ctx, s.db, s.user.ID, fmt.Sprintf("L%d", i), "metric")
				if err != nil {
					b.Fatal(err)
				}
				lists[i] = id
			}
			streams := make([]*stream, open)
			for i := range streams {
				streams[i] = s.open(b, ctx, client, lists[i%len(lists)])
			}
			if n := s.events.Subscribers(); n != open {
				b.Fatalf("%d subscribers", n)
			}
			var lat []time.Duration
			b.ResetTimer()
			for range b.N {
				t0 := time.Now()
				// One statement, one commit: a notification per list.
				if _, err := s.db.Exec(ctx, `UPDATE shopping_list SET updated_at = now() WHERE id = ANY($1)`, lists); err != nil {
					b.Fatal(err)
				}
				for _, st := range streams {
					<-st.heard
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(lat)
			pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
			b.ReportMetric(pct(0.5), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
			b.ReportMetric(float64(open), "streams")
		})
	}
}
