package plugin

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/nous-dev/nous/sdk/host"
)

// go-plugin's start errors are terse and name its internals; these patterns
// pick out what a user needs to know.
var (
	reUnrecognized = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Unrecognized remote plugin message: (.*)`) })
	reCoreVersion  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`incompatible core API version with plugin\. Plugin version: (\d+), Core version: (\d+)`)
	})
	reNoAPIVersions = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`Error parsing protocol version`) })
)

// versionError says a plugin and this nous speak different protocols.
type versionError struct {
	Who    string
	Plugin int   // the protocol version the plugin speaks
	Host   []int // the versions this nous speaks
	Core   bool  // go-plugin's own core protocol rather than nous's
}

func (e *versionError) Error() string {
	host := joinInts(e.Host)
	if e.Core {
		return fmt.Sprintf("plugin %s speaks go-plugin core protocol %d but this nous speaks %s: rebuild the plugin against the current github.com/nous-dev/nous/sdk",
			e.Who, e.Plugin, host)
	}
	advice := "rebuild the plugin against the current github.com/nous-dev/nous/sdk (go get github.com/nous-dev/nous/sdk@latest, then go build), or use a nous release that speaks protocol " + strconv.Itoa(e.Plugin)
	if len(e.Host) > 0 && e.Plugin > e.Host[len(e.Host)-1] {
		advice = "upgrade nous to a release that speaks protocol " + strconv.Itoa(e.Plugin) + ", or use an older build of the plugin"
	}
	return fmt.Sprintf("plugin %s speaks nous plugin protocol %d but this nous speaks protocol %s: %s", e.Who, e.Plugin, host, advice)
}

// explainStart rewrites an error from starting a plugin process. log holds
// what the process printed on stderr before it failed.
func explainStart(who string, err error, log *pluginLog, versions []int) error {
	msg := err.Error()
	if v, ok := host.MismatchedProtocol(err); ok {
		return &versionError{Who: who, Plugin: v, Host: versions}
	}
	if m := reCoreVersion().FindStringSubmatch(msg); m != nil {
		v, _ := strconv.Atoi(m[1])
		core, _ := strconv.Atoi(m[2])
		return &versionError{Who: who, Plugin: v, Host: []int{core}, Core: true}
	}
	if m := reUnrecognized().FindStringSubmatch(msg); m != nil {
		line, _, _ := strings.Cut(m[1], "\n")
		if line == "" && strings.Contains(msg, "Failed to read any lines") {
			return fmt.Errorf("plugin %s exited before the handshake: %s", who, log.crashNote())
		}
		if first, ok := log.firstStdout(); ok {
			line = first.String() // whole size known, clipped for the message
		}
		return fmt.Errorf("%s (is it a nous plugin built with plugin.Serve?)", stdoutPollution(who, line))
	}
	switch {
	case strings.Contains(msg, "plugin exited before we could connect"):
		return fmt.Errorf("plugin %s exited before the handshake: %s", who, log.crashNote())
	case strings.Contains(msg, "timeout while waiting for plugin to start"):
		return fmt.Errorf("plugin %s did not complete the handshake in time (is it a nous plugin built with plugin.Serve?): %s", who, log.crashNote())
	case reNoAPIVersions().MatchString(msg):
		return fmt.Errorf("plugin %s sent a malformed handshake (%s); is it a nous plugin built with plugin.Serve?", who, msg)
	}
	return fmt.Errorf("starting plugin %s: %w", who, err)
}

func joinInts(vs []int) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = strconv.Itoa(v)
	}
	return strings.Join(s, ", ")
}
