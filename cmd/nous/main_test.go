package main

import (
	"os"
	"testing"
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
