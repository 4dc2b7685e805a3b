package importer

import "context"

// Stages of an import that a person waiting for it can be told about.
const (
	StageFetching = "fetching" // the plain fetch of the page
	StageBrowser  = "browser"  // the site refused the plain fetch or needs JavaScript: Chromium renders it
	StageReading  = "reading"  // the page is in hand; its recipe is being read
)

type stageKey struct{}

// WithStage returns a context under which Import reports each stage it
// enters to report. The Importer is shared by concurrent jobs, so the
// listener travels with the job's context, not in the Importer.
func WithStage(ctx context.Context, report func(stage string)) context.Context {
	return context.WithValue(ctx, stageKey{}, report)
}

// enter tells the context's listener, if any, that stage has begun.
func enter(ctx context.Context, stage string) {
	if report, ok := ctx.Value(stageKey{}).(func(string)); ok {
		report(stage)
	}
}
