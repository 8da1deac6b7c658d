// Package viewer is the run viewer of nous serve: one page, embedded in
// the binary, that asks questions through the public /v1 API and shows the
// plan as a graph, the run's progress, its report, evidence, refinements
// and reasoning trace, and the recent runs.
package viewer

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"
)

// Prefix is where the page's scripts and styles are served.
const Prefix = "/ui/"

// Policy is the Content-Security-Policy of every viewer response: the page
// runs only its own embedded scripts and styles and talks only to its own
// origin; nothing from the server's answers can run as code.
const Policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

//go:embed ui
var files embed.FS

// Assets are the embedded files: the page (ui/index.html) and what it loads.
func Assets() fs.FS {
	sub, err := fs.Sub(files, "ui")
	if err != nil {
		panic(err) // ui is embedded above
	}
	return sub
}

// Public reports whether path is the viewer's: the page holds no secret
// and asks for the token itself, so it is served without one.
func Public(path string) bool {
	return path == "/" || strings.HasPrefix(path, Prefix)
}

// Handler serves the page at / and its assets under Prefix.
func Handler() http.Handler {
	assets := Assets()
	static := http.StripPrefix(Prefix, http.FileServerFS(assets))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", Policy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		if r.URL.Path == "/" {
			http.ServeFileFS(w, r, assets, "index.html")
			return
		}
		static.ServeHTTP(w, r)
	})
}
