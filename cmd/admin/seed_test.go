package main

import (
	"bytes"
	"context"
	"testing"
)

func TestSeedArguments(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"--recipes", "0"}, {"--recipes", "x"}, {"--recipes", "5", "--users", "1"}} {
		if err := runSeed(context.Background(), args, &bytes.Buffer{}); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
