package main

import (
	"net/http"

	"github.com/nous-dev/nous/engine/mcptools"
	"github.com/nous-dev/nous/engine/nlweb"
	"github.com/nous-dev/nous/engine/server"
)

// frontEnds are the protocols `nous serve` answers beside its /v1 API,
// each a thin adapter over the server's Ask and Plan.
func frontEnds() []server.Mount {
	ask := func(s *server.Server) http.Handler { return nlweb.Handler(s) }
	return []server.Mount{
		{Pattern: "GET /ask", Handler: ask}, // NLWeb
		{Pattern: "POST /ask", Handler: ask},
		mcptools.Mount(mcptools.Options{Version: version()}), // MCP, streamable HTTP
	}
}
