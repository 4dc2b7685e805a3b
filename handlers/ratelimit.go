package handlers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"
	"github.com/ulule/limiter/v3"
	redisstore "github.com/ulule/limiter/v3/drivers/store/redis"

	"larder/config"
)

// rateLimiter counts attempts: on the credential routes per client address
// (AUTH_RATE_LIMIT, the specification's 5 per 15 minutes), each route on its
// own count, and on a few signed-in routes per user. With REDIS_URL the
// counts live in Redis, shared by every API instance; otherwise in this
// process, on the clock the app was given (so tests pass a window without
// waiting it out).
type rateLimiter struct {
	shared  limiter.Store // Redis or memory
	local   limiter.Store // memory; also the fallback while Redis fails
	auth    limiter.Rate
	trusted []netip.Prefix
	logger  *slog.Logger
	now     func() time.Time
}

func newRateLimiter(cfg config.Config, logger *slog.Logger, now func() time.Time) *rateLimiter {
	local := newMemoryStore(now)
	rl := &rateLimiter{shared: local, local: local, trusted: cfg.TrustedProxies, logger: logger, now: now,
		auth: limiter.Rate{Period: cfg.AuthRateLimitWindow, Limit: int64(cfg.AuthRateLimit)}}
	if cfg.RedisURL != "" {
		opts, err := redis.ParseURL(cfg.RedisURL.Reveal())
		if err != nil {
			// config.Load validated the URL's form; this is the driver's own refusal.
			logger.Error("REDIS_URL cannot be used; counting attempts in this process only", "error", err)
			return rl
		}
		// A slow or missing Redis must not hold up sign-ins for long.
		// A failure falls back to counting in the process at once, rather
		// than after go-redis's own retries.
		opts.DialTimeout, opts.ReadTimeout, opts.WriteTimeout = 2*time.Second, time.Second, time.Second
		opts.MaxRetries, opts.DialerRetries = -1, 1
		rl.shared = &lazyRedisStore{client: redis.NewClient(opts), now: now}
	}
	return rl
}

// add counts n attempts (n may be negative: an attempt given back) for key
// and returns the count's state.
func (rl *rateLimiter) add(ctx context.Context, key string, n int64, rate limiter.Rate) limiter.Context {
	lc, err := rl.shared.Increment(ctx, key, n, rate)
	if err != nil {
		// Counting per instance beats both refusing every sign-in and
		// not counting at all.
		rl.logger.Warn("rate limit store failed; counting in this process", "error", err)
		lc, _ = rl.local.Increment(ctx, key, n, rate)
	}
	return lc
}

// refuse is the 429 of a used-up count, with Retry-After.
func (rl *rateLimiter) refuse(c *fiber.Ctx, lc limiter.Context, who string) error {
	// The store gives the window's end in whole seconds, rounded down;
	// round the wait up, so a client that waits as told is never refused
	// again.
	end := time.Unix(lc.Reset+1, 0)
	wait := max(int64(math.Ceil(end.Sub(rl.now()).Seconds())), 1)
	c.Set(fiber.HeaderRetryAfter, strconv.FormatInt(wait, 10))
	return newError(fiber.StatusTooManyRequests, "rate_limited",
		"too many attempts %s; try again in %s", who, humanSeconds(wait))
}

// limit refuses the request with 429 and Retry-After once the client's
// address has used up its attempts on the route called name.
func (rl *rateLimiter) limit(name string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		key := name + ":" + rl.clientAddr(c).String()
		if lc := rl.add(c.UserContext(), key, 1, rl.auth); lc.Reached {
			return rl.refuse(c, lc, "from your address")
		}
		return c.Next()
	}
}

// limitFailures is limit for sign-in: only failed attempts count, so a
// household behind one address does not lock itself out by signing in.
// The attempt is counted before the handler runs and given back when it
// succeeds: counting only afterwards would let a burst of parallel guesses
// all pass the check before any of them is counted.
func (rl *rateLimiter) limitFailures(name string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		key := name + ":" + rl.clientAddr(c).String()
		if lc := rl.add(c.UserContext(), key, 1, rl.auth); lc.Reached {
			return rl.refuse(c, lc, "from your address")
		}
		err := c.Next()
		status := c.Response().StatusCode()
		if err != nil {
			status = toAPIError(err).Status
		}
		if status < 400 {
			rl.add(c.UserContext(), key, -1, rl.auth)
		}
		return err
	}
}

// limitUser counts every attempt of the signed-in caller on the route
// called name (after requireAuth), rate at a time.
func (rl *rateLimiter) limitUser(name string, rate limiter.Rate) fiber.Handler {
	return func(c *fiber.Ctx) error {
		key := name + ":user:" + caller(c).ID.String()
		if lc := rl.add(c.UserContext(), key, 1, rate); lc.Reached {
			return rl.refuse(c, lc, "from your account")
		}
		return c.Next()
	}
}

func humanSeconds(s int64) string {
	switch {
	case s < 90:
		return fmt.Sprintf("%d seconds", s)
	default:
		return fmt.Sprintf("%d minutes", (s+30)/60)
	}
}

// clientAddr is the address attempts are counted against. X-Forwarded-For
// is believed only when the request comes from a trusted proxy, and then
// only as far as the chain of trusted proxies goes: reading right to left,
// the first address that is not a trusted proxy is the client (anything to
// its left was written by the client itself and could be anything). IPv6
// clients are counted per /64, the block one host usually owns.
func (rl *rateLimiter) clientAddr(c *fiber.Ctx) netip.Addr {
	peer, _ := netip.AddrFromSlice(c.Context().RemoteIP())
	a := forwardedClient(peer.Unmap(), c.Request().Header.PeekAll(fiber.HeaderXForwardedFor), rl.trusted)
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.Addr()
	}
	return a
}

func forwardedClient(peer netip.Addr, headers [][]byte, trusted []netip.Prefix) netip.Addr {
	isTrusted := func(a netip.Addr) bool {
		for _, p := range trusted {
			if p.Contains(a) {
				return true
			}
		}
		return false
	}
	if !isTrusted(peer) {
		return peer
	}
	var hops []string
	for _, h := range headers {
		hops = append(hops, strings.Split(string(h), ",")...)
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := parseHop(strings.TrimSpace(hops[i]))
		if !ok {
			// A trusted proxy would not write garbage: the chain we can
			// believe ends at the last trusted hop.
			return client
		}
		if !isTrusted(a) {
			return a
		}
		client = a
	}
	return client
}

// parseHop reads one X-Forwarded-For entry: an address, possibly with a
// port, IPv6 possibly in brackets.
func parseHop(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")); err == nil {
		return a.Unmap(), true
	}
	return netip.Addr{}, false
}

// lazyRedisStore connects to Redis on first use and again after a failure,
// so the API starts (and recovers) whether or not Redis is up. After a
// failure it does not try Redis again for a few seconds, so that while
// Redis is down each sign-in does not wait for a connection timeout.
type lazyRedisStore struct {
	client *redis.Client
	now    func() time.Time
	mu     sync.Mutex
	store  limiter.Store
	// downUntil is when Redis may be tried again after a failure.
	downUntil time.Time
}

// redisRetryAfter is how long a failed Redis is left alone.
const redisRetryAfter = 10 * time.Second

var errRedisDown = errors.New("rate limit store: Redis failed recently; not retrying yet")

func (s *lazyRedisStore) get() (limiter.Store, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.now().Before(s.downUntil) {
		return nil, errRedisDown
	}
	if s.store != nil {
		return s.store, nil
	}
	st, err := redisstore.NewStoreWithOptions(s.client, limiter.StoreOptions{Prefix: "larder:auth-rate"})
	if err != nil {
		s.downUntil = s.now().Add(redisRetryAfter)
		return nil, fmt.Errorf("connect rate limit store: %w", err)
	}
	s.store = st
	return st, nil
}

// do runs op on the Redis store, noting a failure.
func (s *lazyRedisStore) do(op func(limiter.Store) (limiter.Context, error)) (limiter.Context, error) {
	st, err := s.get()
	if err != nil {
		return limiter.Context{}, err
	}
	lc, err := op(st)
	if err != nil {
		s.mu.Lock()
		s.downUntil = s.now().Add(redisRetryAfter)
		s.mu.Unlock()
	}
	return lc, err
}

func (s *lazyRedisStore) Get(ctx context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	return s.do(func(st limiter.Store) (limiter.Context, error) { return st.Get(ctx, key, rate) })
}

func (s *lazyRedisStore) Peek(ctx context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	return s.do(func(st limiter.Store) (limiter.Context, error) { return st.Peek(ctx, key, rate) })
}

func (s *lazyRedisStore) Reset(ctx context.Context, key string, rate limiter.Rate) (limiter.Context, error) {
	return s.do(func(st limiter.Store) (limiter.Context, error) { return st.Reset(ctx, key, rate) })
}

func (s *lazyRedisStore) Increment(ctx context.Context, key string, count int64, rate limiter.Rate) (limiter.Context, error) {
	return s.do(func(st limiter.Store) (limiter.Context, error) { return st.Increment(ctx, key, count, rate) })
}
