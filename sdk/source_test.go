package sdk

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// WithFilter copies: the request it was called on keeps its filters, as a
// caller that shares one request between sources needs.
func TestWithFilter(t *testing.T) {
	req := FetchRequest{Filters: map[string][]string{"paths": {"docs"}}}
	got := req.WithFilter(FilterWithStats, "true")
	assert.Equal(t, map[string][]string{"paths": {"docs"}, "with_stats": {"true"}}, got.Filters)
	assert.Equal(t, map[string][]string{"paths": {"docs"}}, req.Filters)
	assert.Equal(t, map[string][]string{"k": {"v"}}, FetchRequest{}.WithFilter("k", "v").Filters)
}
