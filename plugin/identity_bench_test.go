package plugin

import "testing"

// BenchmarkNewTransport is the host's TLS work per plugin process: a P-256
// server certificate for the child (the client certificate is made once
// per host process, outside the loop).
func BenchmarkNewTransport(b *testing.B) {
	if _, err := clientIdentity(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := newTransport(); err != nil {
			b.Fatal(err)
		}
	}
}
