package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"larder/seed"
)

func init() {
	commands["seed"] = command{
		usage: "--recipes N [--users U] [--seed S]: add N synthetic recipes (several users, mixed visibility, categories, tags, sections, shares) for benchmarks",
		run:   runSeed,
	}
}

func runSeed(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("seed", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o seed.Options
	fs.IntVar(&o.Recipes, "recipes", 0, "how many recipes to add")
	fs.IntVar(&o.Users, "users", 0, "how many users own them (default: one per 2,000 recipes, at least 5)")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed; the same seed gives the same recipes")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w (usage: admin seed --recipes N [--users U] [--seed S])", err)
	}
	if o.Recipes < 1 {
		return errors.New("--recipes must be a positive number (usage: admin seed --recipes N [--users U])")
	}
	if o.Users == 0 {
		o.Users = max(5, o.Recipes/2000)
	}
	if o.Users < 2 {
		return errors.New("--users must be at least 2, so that recipes can be shared")
	}
	pool, err := openDatabase(ctx)
	if err != nil {
		return err
	}
	defer pool.Close()
	return seed.Run(ctx, pool, o, stdout)
}
