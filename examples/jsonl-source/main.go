// Command nous-plugin-jsonl is a nous source plugin that serves records
// from a JSON-lines file. Build it with `go build -o nous-plugin-jsonl .`
// and put the binary in ./.nous/plugins or ~/.nous/plugins.
package main

import "github.com/nous-dev/nous/sdk/plugin"

func main() {
	plugin.Serve(plugin.Config{Source: NewSource(), MaxProcs: 1}) // light work per call: one thread costs less CPU
}
