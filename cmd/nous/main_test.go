package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
)

// envAsNous makes this test binary behave as the nous binary. Built-in
// plugins run as `nous plugin serve NAME` by re-executing os.Executable(),
// which in tests is this binary; its children inherit the variable.
const envAsNous = "NOUS_CLI_TEST_AS_NOUS"

func TestMain(m *testing.M) {
	if mode, ok := testPluginMode(os.Args[0]); ok {
		serveTestPlugin(mode)
	}
	if os.Getenv(envAsNous) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	if err := os.Setenv(envAsNous, "1"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

func TestStderrIsSafeForConcurrentWrites(t *testing.T) {
	var b strings.Builder
	w := &lockedWriter{w: &b}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				fmt.Fprintf(w, "writer %d\n", i)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 800, strings.Count(b.String(), "\n"), "every line whole (the race detector checks the rest)")
	a := &app{stderr: w}
	assert.False(t, a.stderrIsTerminal(), "a buffer is no terminal, wrapped or not")
}
