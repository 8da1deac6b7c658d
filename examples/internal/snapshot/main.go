// Command snapshot writes default_parsed.go, the syntax trees of the
// default rules (see package rules/snapshot). Run it with go generate in
// examples after editing rules/default.
package main

import (
	"fmt"
	"os"

	"github.com/nous-dev/nous/rules/snapshot"
)

func main() {
	src, err := snapshot.Generate("examples", os.DirFS("rules/default"))
	if err == nil {
		err = os.WriteFile("default_parsed.go", src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "snapshot:", err)
		os.Exit(1)
	}
}
