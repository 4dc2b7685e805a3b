package main

import (
	"context"
	"errors"
	"io"
	"os"

	"larder/ingredient"
)

func init() {
	commands["ingredients"] = command{
		usage: "< LINES: print each ingredient line on stdin as the API shows it (text, parsed, amounts), one JSON object a line",
		run: func(ctx context.Context, args []string, stdout io.Writer) error {
			return runIngredients(ctx, args, os.Stdin, stdout)
		},
	}
}

// runIngredients implements `admin ingredients`: the servings scaler's reader, offline. Each output
// line is the ingredient object of a recipe response without its id.
func runIngredients(_ context.Context, args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) != 0 {
		return errors.New("usage: admin ingredients < lines.txt (takes no arguments)")
	}
	return ingredient.WriteLines(stdin, stdout)
}
