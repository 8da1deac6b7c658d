package git

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// TestMain runs the tests twice: with objects read through git cat-file,
// then through go-git's storage, the fallback without git. Benchmarks and
// fuzzing run once: they choose their backend themselves.
func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if code == 0 && flag.Lookup("test.bench").Value.String() == "" && flag.Lookup("test.fuzz").Value.String() == "" {
		fmt.Println("=== the tests again, objects read with go-git")
		objectsWithGit = false
		code = m.Run()
	}
	os.Exit(code)
}
