package host2plugin

import "testing"

// BenchmarkServerTLS is a plugin's TLS work before its handshake when the
// host handed it an identity: parsing the certificate, the key and the
// host's certificate.
func BenchmarkServerTLS(b *testing.B) {
	server, client := testPEM(b), testPEM(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := serverTLS(server, client.cert); err != nil {
			b.Fatal(err)
		}
	}
}
