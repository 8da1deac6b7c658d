package plugin

import (
	"fmt"
	"strings"

	"github.com/nous-dev/nous/sdk"
)

// notConfigured is the error of every call on a source the rules declare
// with no plugin (plugin = ""): it fails at once, no process is started,
// and the message says how to configure the source.
func (s *slot) notConfigured() error {
	if s.spec.Ref != "" {
		return nil
	}
	setup := strings.TrimRight(strings.TrimSpace(s.spec.Setup), ".")
	if setup == "" {
		setup = "its rules name no plugin"
	}
	return &sdk.Error{
		Kind:    sdk.KindBadConfig,
		Message: fmt.Sprintf("%s %q is not configured: %s", s.spec.Kind, s.spec.Name, setup),
	}
}
