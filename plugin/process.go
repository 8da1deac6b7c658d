package plugin

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	goplugin "github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-plugin/runner"
	"github.com/nous-dev/nous/sdk"
	"github.com/nous-dev/nous/sdk/host"
	"github.com/nous-dev/nous/sdk/redact"
)

// pingTimeout bounds the health check that tells a crashed plugin from a
// plugin that returned an error.
const pingTimeout = time.Second

// process is one running plugin subprocess.
type process struct {
	who    string // "name (ref)", for messages
	client *goplugin.Client
	rpc    goplugin.ClientProtocol
	run    *procRunner
	log    *pluginLog

	source sdk.Source // set when dispensed
	agent  sdk.Agent

	mu      sync.Mutex
	stopped string // why the host stopped the process; "" while it should run
	ended   sync.Once
	// described is the source's Describe answer, asked once: what a
	// plugin serves does not change while it runs with one config (a
	// process is started for one config, and a restart asks again).
	described *sdk.SourceInfo
}

// startConfig is what starting one plugin process needs.
type startConfig struct {
	who          string
	launch       launch
	sealed       *sealedBinary // the checked copy to run; nil runs launch.Path
	logger       hclog.Logger  // named after the plugin, redacting
	redact       *redact.Redactor
	startTimeout time.Duration
}

// startProcess launches the plugin and completes the handshake. It returns
// when the plugin is ready to dispense, ctx is done, or the start fails.
func startProcess(ctx context.Context, cfg startConfig) (*process, error) {
	tr, err := newTransport()
	if err != nil {
		return nil, fmt.Errorf("starting plugin %s: %w", cfg.who, err)
	}
	log := &pluginLog{logger: cfg.logger}
	run := newRunner(cfg.launch, cfg.sealed, log)
	client := goplugin.NewClient(&goplugin.ClientConfig{
		HandshakeConfig:  host.Handshake,
		VersionedPlugins: host.VersionedPlugins(),
		// Our runner starts the process: from the sealed copy, in its own
		// process group, reading its stdout and stderr itself.
		RunnerFunc: func(_ hclog.Logger, spec *exec.Cmd, socketDir string) (runner.Runner, error) {
			run.cmd.Env = slices.Concat(spec.Env, tr.env)
			run.socketDir = socketDir
			return run, nil
		},
		AllowedProtocols: []goplugin.Protocol{goplugin.ProtocolGRPC},
		GRPCDialOptions:  host.DialOptions(),
		// Our own mutual TLS, cheaper than go-plugin's AutoMTLS (identity.go).
		TLSConfig: tr.config,
		// A little longer than ctx allows, so ctx's clearer error wins.
		StartTimeout: cfg.startTimeout + time.Second,
		// os.Stderr and os.Stdout writes after the handshake, which
		// go-plugin forwards: separate writers, so their partial lines
		// never mix.
		SyncStderr: &lineWriter{fn: log.record},
		SyncStdout: stdoutWatch(cfg.logger, cfg.who),
		// go-plugin's own lines are debugging detail.
		Logger: &hostLogger{Logger: cfg.logger, redact: cfg.redact, demote: true, muteNamed: true},
	})
	p := &process{who: cfg.who, client: client, run: run, log: log}

	type result struct {
		rpc goplugin.ClientProtocol
		err error
	}
	done := make(chan result, 1)
	go func() {
		rpc, err := client.Client()
		if err == nil && !tr.handshakeCert() {
			// Served with the identity we handed it, or with no TLS at
			// all: the first call tells, so make it now.
			if err = rpc.Ping(); err != nil {
				err = fmt.Errorf("it did not complete a TLS handshake with the certificate nous handed it (%w); %w", err, errNoMutualTLS)
			}
		}
		done <- result{rpc, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			p.hardKill()
			return nil, cfg.redact.Error(explainStart(cfg.who, r.err, log, supportedVersions()))
		}
		p.rpc = r.rpc
	case <-ctx.Done():
		p.hardKill()
		<-done
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			// The note quotes the plugin's stderr, which may hold a secret.
			return nil, cfg.redact.Error(&sdk.Error{
				Kind:    sdk.KindDeadline,
				Message: fmt.Sprintf("plugin %s did not complete the handshake in time and was killed: %s", cfg.who, log.crashNote()),
				Err:     ctx.Err(),
			})
		}
		return nil, fmt.Errorf("starting plugin %s: %w", cfg.who, ctx.Err())
	}
	return p, nil
}

// dispense connects the service of kind.
func (p *process) dispense(kind Kind) error {
	name := host.PluginSource
	if kind == KindAgent {
		name = host.PluginAgent
	}
	raw, err := p.rpc.Dispense(name)
	if err != nil {
		return fmt.Errorf("plugin %s: connecting to its %s service: %w", p.who, name, err)
	}
	switch kind {
	case KindSource:
		s, ok := raw.(sdk.Source)
		if !ok {
			return fmt.Errorf("plugin %s: its source service has type %T, not sdk.Source", p.who, raw)
		}
		p.source = s
	case KindAgent:
		a, ok := raw.(sdk.Agent)
		if !ok {
			return fmt.Errorf("plugin %s: its agent service has type %T, not sdk.Agent", p.who, raw)
		}
		p.agent = a
	}
	return nil
}

// pid is the plugin's process id.
func (p *process) pid() int {
	return p.run.pid()
}

// stopReason says why the host stopped the process, "" if it did not.
func (p *process) stopReason() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stopped
}

// markStopped records why the host is stopping the process; the first
// reason wins.
func (p *process) markStopped(reason string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped == "" {
		p.stopped = reason
	}
}

// usable reports whether calls may go to the process.
func (p *process) usable() bool {
	return p.stopReason() == "" && !p.client.Exited()
}

// alive reports whether the process still answers, to tell a crash from an
// error the plugin returned.
func (p *process) alive() bool {
	if p.client.Exited() {
		return false
	}
	done := make(chan error, 1)
	go func() { done <- p.rpc.Ping() }()
	select {
	case err := <-done:
		return err == nil && !p.client.Exited()
	case <-time.After(pingTimeout):
		return false
	}
}

// hardKill ends the process at once, then lets go-plugin clean up. It is for
// processes that are hung or already dead, and for starts abandoned before
// the process launched, which it keeps from launching (go-plugin's Kill
// does nothing then); end(false) is the polite way.
func (p *process) hardKill() {
	_ = p.run.Kill(context.Background()) // first: go-plugin's Kill waits for its lock
	p.client.Kill()
}

// end stops the process once; later callers wait until it has ended and its
// stderr is drained. hard kills at once (hung or dead plugins); otherwise the
// plugin is asked to exit and killed after go-plugin's grace period (2s).
func (p *process) end(hard bool) {
	p.ended.Do(func() {
		if hard {
			p.hardKill()
			return
		}
		p.client.Kill()
	})
}

// supportedVersions lists the protocol versions this host speaks, ascending.
func supportedVersions() []int {
	vs := make([]int, 0, 1)
	for v := range host.VersionedPlugins() {
		vs = append(vs, v)
	}
	slices.Sort(vs)
	return vs
}
