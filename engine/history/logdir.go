package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nous-dev/nous/sdk/redact"
)

// AgentCall is one agent invocation as written to an iteration file.
type AgentCall struct {
	Iteration    int             `json:"iteration"` // the pass
	Step         string          `json:"step"`
	Agent        string          `json:"agent"`
	Role         string          `json:"role"`
	Attempt      int             `json:"attempt"` // 1, or 2 for the retry after malformed output
	InputPrompt  string          `json:"input_prompt"`
	Input        json.RawMessage `json:"input"`
	Output       json.RawMessage `json:"output_response,omitempty"`
	RawOutput    string          `json:"raw_output,omitempty"` // when the output was not valid JSON
	Repaired     bool            `json:"repaired,omitempty"`
	Error        string          `json:"error,omitempty"`
	Metadata     map[string]any  `json:"metadata,omitempty"`
	Timestamp    time.Time       `json:"timestamp"`
	PromptTokens int             `json:"prompt_tokens,omitempty"`
}

// Sink receives iteration logs as a run goes. Methods must be safe for
// concurrent use; errors are reported but never stop the run.
type Sink interface {
	LogAgent(call AgentCall) error
	LogSummary(h *History) error
}

// Dir writes a run's logs under root/{execution_id}/, a directory it
// created and no other run writes to:
// iteration_{pass}_{role}_{step}.json per agent call (suffixed _retry for a
// retry), history.json and session_summary.json. What it writes is masked
// by its redactor before it is encoded, and the encoded bytes again.
type Dir struct {
	root        string
	executionID string
	red         *redact.Redactor
	mu          sync.Mutex
}

// maxIDTries bounds how many fresh execution ids Create tries when the
// directory of one already exists.
const maxIDTries = 8

// NewDir creates root/{executionID} for one run; red may be nil (nothing
// masked). The directory must not exist: a run never writes into another
// run's directory, so an existing one is an error (wrapping fs.ErrExist).
func NewDir(root, executionID string, red *redact.Redactor) (*Dir, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("log dir: %w", err)
	}
	d := &Dir{root: root, executionID: executionID, red: red}
	// Mkdir fails when the directory exists: the exclusive create that
	// makes the directory this run's alone.
	if err := os.Mkdir(d.Path(), 0o755); err != nil {
		return nil, fmt.Errorf("log dir: %w", err)
	}
	return d, nil
}

// Create creates a directory of its own under root for a run, named by
// newID; when that name is taken (another run chose it) it asks newID for
// another, up to maxIDTries times. The Dir's ExecutionID is the name used.
func Create(root string, newID func() string, red *redact.Redactor) (*Dir, error) {
	var err error
	for range maxIDTries {
		var d *Dir
		if d, err = NewDir(root, newID(), red); !errors.Is(err, fs.ErrExist) {
			return d, err
		}
	}
	return nil, fmt.Errorf("%w (%d execution ids tried)", err, maxIDTries)
}

// ExecutionID is the name of the run's directory.
func (d *Dir) ExecutionID() string { return d.executionID }

// Path is the run's directory.
func (d *Dir) Path() string { return filepath.Join(d.root, d.executionID) }

// LogAgent writes one agent call.
func (d *Dir) LogAgent(call AgentCall) error {
	name := fmt.Sprintf("iteration_%d_%s_%s", call.Iteration, safe(call.Role), safe(call.Step))
	if call.Attempt > 1 {
		name += "_retry"
	}
	return d.write(name+".json", call)
}

// LogSummary writes history.json and session_summary.json.
func (d *Dir) LogSummary(h *History) error {
	if err := d.write("history.json", h); err != nil {
		return err
	}
	return d.write("session_summary.json", Summary{
		ExecutionID:     h.ExecutionID,
		Query:           h.TaskInput,
		Mode:            h.Configuration.Mode,
		TotalIterations: len(h.Passes),
		FinalStatus:     h.FinalResult.Status,
		Termination:     h.Termination,
		Statistics:      h.Statistics,
		StartedAt:       h.StartedAt,
		EndedAt:         h.EndedAt,
	})
}

// Summary is session_summary.json.
type Summary struct {
	ExecutionID     string     `json:"execution_id"`
	Query           string     `json:"query"`
	Mode            string     `json:"mode"`
	TotalIterations int        `json:"total_iterations"`
	FinalStatus     string     `json:"final_status"`
	Termination     string     `json:"termination"`
	Statistics      Statistics `json:"statistics"`
	StartedAt       time.Time  `json:"started_at"`
	EndedAt         time.Time  `json:"ended_at"`
}

func (d *Dir) write(name string, v any) error {
	b, err := json.MarshalIndent(redact.Value(d.red, v), "", "  ")
	if err != nil {
		return fmt.Errorf("log %s: %w", name, err)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := os.WriteFile(filepath.Join(d.Path(), name), append(d.red.Bytes(b), '\n'), 0o644); err != nil {
		return fmt.Errorf("log %s: %w", name, err)
	}
	return nil
}

// safe keeps a file-name part to letters, digits, dot, dash and underscore.
func safe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '-' || r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, s)
}
