package host_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/nous-dev/nous/sdk/host"
	"github.com/stretchr/testify/assert"
)

func TestMismatchedProtocol(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		version int
		ok      bool
	}{
		{"go-plugin's error", errors.New("incompatible API version with plugin. Plugin version: 2, Client versions: [1]"), 2, true},
		{"wrapped", fmt.Errorf("start gitlab: %w", errors.New("incompatible API version with plugin. Plugin version: 7, Client versions: [1 2]")), 7, true},
		{"core protocol is something else", errors.New("incompatible core API version with plugin. Plugin version: 2, Client versions: [1]"), 0, false},
		{"other error", errors.New("exec: no such file"), 0, false},
		{"nil", nil, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, ok := host.MismatchedProtocol(tc.err)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.version, v)
		})
	}
}
