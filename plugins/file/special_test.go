//go:build unix

package file

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nous-dev/nous/sdk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// formats are the formats every refusal is checked with: the format
// decides the decoder, and each decoder once read a device to its end.
var formats = []string{FormatJSON, FormatJSONL, FormatCSV}

// configure configures a new source with path and format and returns its
// diagnostics.
func configure(t *testing.T, path, format string) (*Source, sdk.Diagnostics) {
	t.Helper()
	raw, err := json.Marshal(map[string]string{"path": path, "format": format})
	require.NoError(t, err)
	s := New()
	diags, err := s.Configure(context.Background(), raw)
	require.NoError(t, err)
	return s, diags
}

// fetchErr fetches from s and returns the error, failing the test when
// the fetch does not end: a source that opens a FIFO without a writer
// blocks forever, so the bound only applies to a failure.
func fetchErr(t *testing.T, s *Source, unblock func()) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		done <- s.Fetch(context.Background(), sdk.FetchRequest{}, func(sdk.Record) error { return nil })
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		unblock()
		t.Fatal("fetch hung on a special file")
		return nil
	}
}

// unblockFIFO opens p for writing and closes it, releasing a reader that
// waits for a writer.
func unblockFIFO(p string) func() {
	return func() {
		if f, err := os.OpenFile(p, os.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}
}

// TestRefusesSpecialFiles configures a source on each thing that is not a
// regular data file, in each format: Configure refuses it, naming the path
// and why, before anything is read.
func TestRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.data")
	require.NoError(t, unix.Mkfifo(fifo, 0o600))
	link := filepath.Join(dir, "env.data")
	require.NoError(t, os.Symlink("/proc/self/environ", link))
	linkDir := filepath.Join(dir, "proclink")
	require.NoError(t, os.Symlink("/proc/self", linkDir))
	empty := filepath.Join(dir, "empty.d")
	require.NoError(t, os.Mkdir(empty, 0o700))

	tests := []struct {
		name string
		path string
		want []string
	}{
		{"device", "/dev/zero", []string{"/dev/zero", "not a regular file"}},
		{"fifo", fifo, []string{fifo, "not a regular file"}},
		{"proc", "/proc/self/environ", []string{"/proc/self/environ", "/proc"}},
		{"symlink into proc", link, []string{link, "/proc/", "environ"}},
		{"through a symlinked directory", filepath.Join(linkDir, "environ"), []string{"environ", "/proc/"}},
		{"sys", "/sys/kernel/uevent_seqnum", []string{"/sys/kernel/uevent_seqnum", "/sys"}},
		{"dev regular name", "/dev/null", []string{"/dev/null"}},
		{"glob onto a fifo", filepath.Join(dir, "pipe.*"), []string{fifo, "not a regular file"}},
		{"glob onto a symlink into proc", filepath.Join(dir, "env.*"), []string{link, "/proc/"}},
		{"empty directory", empty, []string{empty, "holds no"}},
	}
	for _, tt := range tests {
		for _, format := range formats {
			t.Run(tt.name+"/"+format, func(t *testing.T) {
				if _, err := os.Lstat(tt.path); err != nil && !strings.Contains(tt.path, "*") {
					t.Skipf("%s: %v", tt.path, err)
				}
				_, diags := configure(t, tt.path, format)
				require.True(t, diags.HasErrors(), "Configure accepted %s", tt.path)
				for _, w := range tt.want {
					assert.Contains(t, diags[0].Summary, w)
				}
			})
		}
	}
}

// TestRefusesSwappedFiles configures a source on a regular file, then
// replaces the file: a fetch checks what it opened, so a FIFO, a device, a
// directory or a symlink into /proc put in its place is refused, not read,
// and a FIFO does not hang it.
func TestRefusesSwappedFiles(t *testing.T) {
	tests := []struct {
		name string
		swap func(t *testing.T, p string) (unblock func())
		want string
	}{
		{"fifo", func(t *testing.T, p string) func() {
			require.NoError(t, unix.Mkfifo(p, 0o600))
			return unblockFIFO(p)
		}, "not a regular file"},
		{"symlink to environ", func(t *testing.T, p string) func() {
			require.NoError(t, os.Symlink("/proc/self/environ", p))
			return func() {}
		}, "/proc/"},
		{"symlink to a device", func(t *testing.T, p string) func() {
			require.NoError(t, os.Symlink("/dev/zero", p))
			return func() {}
		}, "/dev/"},
		{"directory", func(t *testing.T, p string) func() {
			require.NoError(t, os.Mkdir(p, 0o700))
			return func() {}
		}, "directory"},
	}
	for _, tt := range tests {
		for _, format := range formats {
			t.Run(tt.name+"/"+format, func(t *testing.T) {
				p := filepath.Join(t.TempDir(), "rows."+format)
				require.NoError(t, os.WriteFile(p, []byte(validRows(format)), 0o600))
				s, diags := configure(t, p, format)
				require.False(t, diags.HasErrors(), "%+v", diags)
				require.NoError(t, os.Remove(p))
				unblock := tt.swap(t, p)
				err := fetchErr(t, s, unblock)
				require.Error(t, err)
				assert.Contains(t, err.Error(), p)
				assert.Contains(t, err.Error(), tt.want)
			})
		}
	}
}

// validRows is one valid row in format.
func validRows(format string) string {
	switch format {
	case FormatCSV:
		return "id,title\n1,a\n"
	case FormatJSON:
		return `[{"id":"1","title":"a"}]`
	}
	return `{"id":"1","title":"a"}` + "\n"
}

// TestProcEnvironNeverRead checks the original report: no configuration
// of the file source shows the process environment.
func TestProcEnvironNeverRead(t *testing.T) {
	t.Setenv("NOUS_TEST_SECRET", "s3cr3t-value-from-env")
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			s, diags := configure(t, "/proc/self/environ", format)
			assert.NotContains(t, fmt.Sprint(diags), "s3cr3t-value-from-env")
			if diags.HasErrors() {
				return
			}
			var got []sdk.Record
			err := s.Fetch(context.Background(), sdk.FetchRequest{}, func(r sdk.Record) error { got = append(got, r); return nil })
			assert.NotContains(t, fmt.Sprint(got, err), "s3cr3t-value-from-env")
			t.Fatalf("Configure accepted /proc/self/environ")
		})
	}
}

// TestRefusesASwapAfterTheCheck swaps the file, or the directory above
// it, between checkPath and the open: what was opened is refused all the
// same (the open does not follow a last symlink; the kernel's file
// systems are refused by what the opened file lives on).
func TestRefusesASwapAfterTheCheck(t *testing.T) {
	tests := []struct {
		name string
		swap func(t *testing.T, dir, p string)
		want string
	}{
		{"file to a symlink into /proc", func(t *testing.T, _, p string) {
			require.NoError(t, os.Remove(p))
			require.NoError(t, os.Symlink("/proc/self/environ", p))
		}, "became a symlink after it was checked"},
		{"directory to a symlink to /proc/self", func(t *testing.T, dir, _ string) {
			require.NoError(t, os.Rename(dir, dir+".old"))
			require.NoError(t, os.Symlink("/proc/self", dir))
		}, "/proc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat("/proc/self/environ"); err != nil {
				t.Skip("no /proc here")
			}
			dir := filepath.Join(t.TempDir(), "data")
			require.NoError(t, os.Mkdir(dir, 0o700))
			p := filepath.Join(dir, "environ") // the name /proc/self has too
			require.NoError(t, os.WriteFile(p, []byte(validRows(FormatJSONL)), 0o600))
			real, err := checkPath(p)
			require.NoError(t, err)
			tt.swap(t, dir, p)
			f, err := openChecked(p, real)
			if err == nil {
				f.Close()
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
