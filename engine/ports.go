package engine

import (
	"context"

	"github.com/nous-dev/nous/sdk"
)

// Sources fetches records from the sources named in the rules. The plugin
// package satisfies it with plugin subprocesses; tests with in-process fakes.
type Sources interface {
	Fetch(ctx context.Context, source string, req sdk.FetchRequest, emit func(sdk.Record) error) error
}

// Agents invokes the agents named in the rules.
type Agents interface {
	Invoke(ctx context.Context, agent string, req sdk.InvokeRequest) (sdk.InvokeResponse, error)
}

// Grounding asks the sources which of a question's terms they know. The
// plugin package satisfies it; a source that cannot ground answers with
// every term unknown and no error.
type Grounding interface {
	Ground(ctx context.Context, source string, req sdk.GroundRequest) (sdk.GroundResponse, error)
}

// Starter starts the plugins serving the named sources and agents ahead of
// their first calls, in the background, and returns at once; a start that
// fails fails the first call as it would have without it. The plugin
// package satisfies it; an answer prestarts what its plan needs when its
// plugins do.
type Starter interface {
	Prestart(ctx context.Context, sources, agents []string)
}
