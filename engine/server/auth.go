package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/nous-dev/nous/engine/server/viewer"
)

// EnvToken names the variable that gives the bearer token when --token does not.
const EnvToken = "NOUS_SERVE_TOKEN"

// CheckAddr refuses to serve on a non-loopback address without a token:
// anyone who reaches it could ask anything of the configured sources.
func CheckAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w (want HOST:PORT, e.g. 127.0.0.1:7878)", addr, err)
	}
	if token != "" || loopback(host) {
		return nil
	}
	return fmt.Errorf("address %q is not loopback: give a token (--token or $%s), which every request must then bear", addr, EnvToken)
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// open reports whether path answers without a token: probes must work
// without secrets, and the viewer's page, which holds none, asks for the
// token itself.
func open(path string) bool {
	return path == "/healthz" || path == "/readyz" || viewer.Public(path)
}

// guard applies CORS, the body limit and the bearer token to every route.
func (s *Server) guard(next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(s.cfg.Token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.cfg.CORS != "" && r.Header.Get("Origin") == s.cfg.CORS {
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", s.cfg.CORS)
			h.Set("Vary", "Origin")
			// A page must read the run's ID from the answer's headers.
			h.Set("Access-Control-Expose-Headers", "Nous-Run-Id, Location")
			if r.Method == http.MethodOptions {
				h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
				h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept")
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		if s.cfg.Token != "" && !open(r.URL.Path) {
			// Hashes compare in constant time whatever the lengths.
			got := sha256.Sum256([]byte(bearer(r)))
			if subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="nous"`)
				writeError(w, http.StatusUnauthorized, "missing or wrong bearer token")
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
		next.ServeHTTP(w, r)
	})
}

// bearer is the token of r's Authorization header, "" when there is none.
func bearer(r *http.Request) string {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
