package server_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/nous-dev/nous/engine/server"
	"github.com/nous-dev/nous/examples"
	"github.com/nous-dev/nous/rules"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The digest depends on the rules files' contents and names, not on where
// they are: a copied directory, a relative path and the embedded defaults
// they were copied from have the same one.
func TestDigestIsTheRulesNotWhereTheyAre(t *testing.T) {
	digestOf := func(path string) string {
		t.Helper()
		rs, diags := rules.Load(path)
		require.False(t, diags.HasErrors(), diags.Error())
		return server.NewSnapshot(rs, nil, nil, nil).Digest
	}
	a := rulesDir(t)
	b := rulesDir(t)
	defaults, diags := rules.LoadFS(examples.DefaultRules())
	require.False(t, diags.HasErrors())
	want := server.NewSnapshot(defaults, nil, nil, nil).Digest

	assert.Equal(t, want, digestOf(a), "a copy of the defaults")
	assert.Equal(t, want, digestOf(b), "another copy")
	t.Chdir(filepath.Dir(b))
	assert.Equal(t, want, digestOf(filepath.Base(b)), "a relative path")

	require.NoError(t, os.WriteFile(filepath.Join(b, "onboarding.hcl"), []byte(onboardingIntent), 0o600))
	added := digestOf(b)
	assert.NotEqual(t, want, added, "another file")
	require.NoError(t, os.Rename(filepath.Join(b, "onboarding.hcl"), filepath.Join(b, "welcome.hcl")))
	assert.NotEqual(t, added, digestOf(b), "a file renamed")

	one := filepath.Join(t.TempDir(), "nous.hcl")
	require.NoError(t, os.WriteFile(one, []byte(onboardingIntent), 0o600))
	other := filepath.Join(t.TempDir(), "nous.hcl")
	require.NoError(t, os.WriteFile(other, []byte(onboardingIntent), 0o600))
	assert.Equal(t, digestOf(one), digestOf(other), "one file, copied")
}
