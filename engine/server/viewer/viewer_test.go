package viewer_test

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"

	"github.com/nous-dev/nous/engine/server/viewer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHandler(t *testing.T) {
	tests := []struct {
		path, contentType, contains string
		code                        int
	}{
		{"/", "text/html; charset=utf-8", `<script type="module" src="/ui/app.js">`, http.StatusOK},
		{"/ui/app.js", "text/javascript; charset=utf-8", "import", http.StatusOK},
		{"/ui/style.css", "text/css; charset=utf-8", ":root", http.StatusOK},
		{"/ui/nosuch.js", "text/plain; charset=utf-8", "404", http.StatusNotFound},
	}
	h := viewer.Handler()
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, tt.path, nil))
			body, err := io.ReadAll(rec.Result().Body)
			require.NoError(t, err)
			assert.Equal(t, tt.code, rec.Code)
			assert.Equal(t, tt.contentType, rec.Header().Get("Content-Type"))
			assert.Contains(t, string(body), tt.contains)
			assert.Equal(t, viewer.Policy, rec.Header().Get("Content-Security-Policy"))
			assert.Equal(t, "nosniff", rec.Header().Get("X-Content-Type-Options"))
		})
	}
}

// TestNoInlineCode keeps the page within its policy: no inline script or
// style, no event handler attributes, no HTML parsing of strings.
func TestNoInlineCode(t *testing.T) {
	banned := map[string]*regexp.Regexp{
		".html": regexp.MustCompile(`<script(?:\s+type="module")?>|<style|\sstyle=|\son[a-z]+=`),
		".js":   regexp.MustCompile(`innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function`),
	}
	require.NoError(t, fs.WalkDir(viewer.Assets(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(viewer.Assets(), path)
		require.NoError(t, err)
		for ext, re := range banned {
			if len(path) > len(ext) && path[len(path)-len(ext):] == ext {
				assert.Empty(t, re.FindAllString(string(data), -1), path)
			}
		}
		return nil
	}))
}

func TestPublic(t *testing.T) {
	for path, want := range map[string]bool{"/": true, "/ui/app.js": true, "/v1/runs": false, "/ui": false, "/metrics": false} {
		assert.Equal(t, want, viewer.Public(path), path)
	}
}

// budget bounds the page's weight: it stays a small page without a
// framework.
const budget = 64 << 10

func TestWeight(t *testing.T) {
	assert.Less(t, weight(t), int64(budget), "the page and its assets, in bytes")
}

// weight is the bytes of the embedded page and its assets.
func weight(tb testing.TB) int64 {
	var total int64
	require.NoError(tb, fs.WalkDir(viewer.Assets(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		total += info.Size()
		return err
	}))
	return total
}

// BenchmarkPageWeight reports the bytes of the embedded page and its
// assets (what a first visit downloads, uncompressed) and serves the page.
func BenchmarkPageWeight(b *testing.B) {
	total := weight(b)
	h := viewer.Handler()
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	}
	b.ReportMetric(float64(total)/1024, "KB/page")
}
