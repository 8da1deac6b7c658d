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
