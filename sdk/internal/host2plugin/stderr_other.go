//go:build !linux

package host2plugin

// directStderr does nothing outside Linux; there
// os.Stderr goes through go-plugin's stdio stream.
func directStderr() {}
