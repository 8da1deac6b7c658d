package redact

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nous-dev/nous/sdk"
)

func TestSecret(t *testing.T) {
	s := New("tok-123456")
	assert.Equal(t, "a [REDACTED] b [REDACTED]", s.String("a tok-123456 b tok-123456"))
	assert.Equal(t, "nothing here", s.String("nothing here"))
	assert.Equal(t, "ab", New("ab").String("ab"), "too short to be a secret")

	err := s.Error(sdk.Errorf(sdk.KindUnauthorized, "bad token tok-123456: %w", errors.New("body tok-123456")))
	assert.ErrorIs(t, err, sdk.ErrUnauthorized)
	assert.Equal(t, "bad token [REDACTED]: body [REDACTED]", err.Error())
	assert.Nil(t, errors.Unwrap(err), "the cause chain is dropped")

	canceled := fmt.Errorf("youtrack: %w", context.Canceled)
	assert.Same(t, canceled, s.Error(canceled))
	assert.NoError(t, s.Error(nil))

	rec := s.Record(sdk.Record{ID: "1", Title: "tok-123456", Fields: map[string]any{"a": "x tok-123456", "b": []string{"tok-123456"}, "n": int64(3)}})
	assert.Equal(t, "[REDACTED]", rec.Title)
	assert.Equal(t, "x [REDACTED]", rec.Fields["a"])
	assert.Equal(t, []string{"[REDACTED]"}, rec.Fields["b"])
	assert.Equal(t, int64(3), rec.Fields["n"])
}
