package sdk

import "context"

// configDirKey is the context key of the configuring rules file's directory.
type configDirKey struct{}

// WithConfigDir returns ctx carrying dir, the absolute directory of the
// rules file whose block configures a plugin. The host sets it for
// Configure, and the SDK carries it to the plugin's Configure, where
// ConfigDir reads it.
func WithConfigDir(ctx context.Context, dir string) context.Context {
	return context.WithValue(ctx, configDirKey{}, dir)
}

// ConfigDir is the directory relative file paths in a Configure call's
// config are relative to: the rules file's directory, or "" when the
// rules are not files (the embedded defaults) or the host is older, and
// then the working directory is meant.
func ConfigDir(ctx context.Context) string {
	dir, _ := ctx.Value(configDirKey{}).(string)
	return dir
}
