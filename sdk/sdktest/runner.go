package sdktest

import (
	"context"
	"os"
	"strconv"
)

// inProcess stands in for a plugin process that is really a goroutine of
// the test: go-plugin's default would watch (and never see die) the test
// binary itself.
type inProcess struct {
	done <-chan struct{}
}

func (p inProcess) Wait(ctx context.Context) error {
	select {
	case <-p.done:
	case <-ctx.Done():
	}
	return nil
}

func (inProcess) Kill(context.Context) error { return nil }

func (inProcess) ID() string { return strconv.Itoa(os.Getpid()) }

func (inProcess) PluginToHost(network, addr string) (string, string, error) {
	return network, addr, nil
}

func (inProcess) HostToPlugin(network, addr string) (string, string, error) {
	return network, addr, nil
}
