package filter

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nous-dev/nous/sdk"
)

func TestList(t *testing.T) {
	assert.Equal(t, []string{"a", "b", "c"}, List([]string{"a, b", " ", "b,c,", "a"}))
	assert.Nil(t, List(nil))
}

func TestSingle(t *testing.T) {
	v, err := Single("p", "ref", []string{" ", " main "})
	require.NoError(t, err)
	assert.Equal(t, "main", v)
	v, err = Single("p", "ref", nil)
	require.NoError(t, err)
	assert.Empty(t, v)
	_, err = Single("p", "ref", []string{"a", "b"})
	require.Error(t, err)
	assert.ErrorIs(t, err, sdk.ErrBadRequest)
	assert.Equal(t, `p: filter "ref" takes one value, got 2 (a, b)`, err.Error())
}

func TestRef(t *testing.T) {
	for _, tt := range []struct {
		f       map[string][]string
		want    string
		wantErr string
	}{
		{map[string][]string{}, "", ""},
		{map[string][]string{"ref": {"main"}, "revisions": {"dev"}}, "main", ""},
		{map[string][]string{"revisions": {"main"}}, "main", ""},
		{map[string][]string{"revisions": {"v1.0..v1.1"}}, "", `github: filter "revisions": "v1.0..v1.1" is a range; the pipeline listing takes one branch or tag`},
		{map[string][]string{"revisions": {"a", "b"}}, "", `filter "revisions" takes one value`},
	} {
		got, err := Ref("github", "pipeline", tt.f)
		if tt.wantErr != "" {
			assert.ErrorContains(t, err, tt.wantErr)
			continue
		}
		assert.NoError(t, err)
		assert.Equal(t, tt.want, got)
	}
}

func TestOpenOrClosed(t *testing.T) {
	for in, want := range map[string]string{"Open": "open", "in-progress": "open", " reopened ": "open", "fixed": "closed",
		"resolved": "closed", "merged": "", "all": "", "": ""} {
		assert.Equal(t, want, OpenOrClosed(in), in)
	}
}
