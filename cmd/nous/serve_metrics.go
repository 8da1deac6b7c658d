package main

import (
	"github.com/nous-dev/nous/plugin"
	"github.com/prometheus/client_golang/prometheus"
)

// pluginMetrics exposes at /metrics the calls, failed calls and restarts of
// every source and agent of the rulesets served, read from their shared
// plugin processes when scraped.
type pluginMetrics struct {
	processes                *plugin.Processes
	calls, failures, restart *prometheus.Desc
}

func newPluginMetrics(ps *plugin.Processes) *pluginMetrics {
	labels := []string{"kind", "name"}
	return &pluginMetrics{
		processes: ps,
		calls: prometheus.NewDesc("nous_plugin_calls_total",
			"Calls on plugins (Fetch, Invoke, Ground), by kind and name of the source or agent.", labels, nil),
		failures: prometheus.NewDesc("nous_plugin_call_failures_total",
			"Calls on plugins that ended in an error, by kind and name of the source or agent.", labels, nil),
		restart: prometheus.NewDesc("nous_plugin_restarts_total",
			"Plugin processes started again after one crashed, hung or was killed, by kind and name of the source or agent.", labels, nil),
	}
}

// Describe sends the descriptions of the plugin metrics.
func (m *pluginMetrics) Describe(ch chan<- *prometheus.Desc) {
	ch <- m.calls
	ch <- m.failures
	ch <- m.restart
}

// Collect sends the plugin counts as they are now.
func (m *pluginMetrics) Collect(ch chan<- prometheus.Metric) {
	for name, c := range m.processes.Counts() {
		kind := name.Kind.String()
		ch <- prometheus.MustNewConstMetric(m.calls, prometheus.CounterValue, float64(c.Calls), kind, name.Name)
		ch <- prometheus.MustNewConstMetric(m.failures, prometheus.CounterValue, float64(c.Failures), kind, name.Name)
		ch <- prometheus.MustNewConstMetric(m.restart, prometheus.CounterValue, float64(c.Restarts), kind, name.Name)
	}
}
