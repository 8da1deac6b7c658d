package plugin_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/nous-dev/nous/plugin"
	"github.com/nous-dev/nous/sdk/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The plugin ends of the transport: the identity the host hands a plugin
// built on this SDK, go-plugin's AutoMTLS of an older one, and none.
func TestTransportIsMutualTLS(t *testing.T) {
	tests := []struct {
		mode    string
		wantEnv string // what the plugin still sees of the TLS variables
		wantErr string // "" when the plugin must connect
	}{
		{mode: "env", wantEnv: "PLUGIN_CLIENT_CERT"},
		{mode: "oldsdk", wantEnv: "PLUGIN_CLIENT_CERT"},
		{mode: "notls", wantErr: "plugin p (builtin:notls): it did not complete a TLS handshake with the certificate nous handed it"},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			m, logs := newManager(t, plugin.Options{}, source("p", "builtin:"+tt.mode))
			info, err := m.Describe(context.Background(), "p")
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				assert.Contains(t, err.Error(), "nous connects to plugins only over mutually authenticated TLS")
				assert.NotContains(t, err.Error(), "PRIVATE KEY")
			} else {
				require.NoError(t, err)
				assert.Equal(t, tt.wantEnv, info.Version)
			}
			assert.NotContains(t, logs.String(), "PRIVATE KEY")
			assert.NotContains(t, logs.String(), host.EnvTLSKey)
		})
	}
}

// Only the host's certificate opens a plugin's socket: another client
// certificate, or none, is refused during the TLS handshake. The plugin
// serves with the P-256 certificate the host handed it, or, on an older
// SDK, with go-plugin's own P-521 one.
func TestPluginRefusesOtherClients(t *testing.T) {
	stranger := selfSigned(t)
	clients := map[string][]tls.Certificate{"no certificate": nil, "another certificate": {stranger}}
	curves := map[string]elliptic.Curve{"echo": elliptic.P256(), "oldsdk": elliptic.P521()}
	for mode, curve := range curves {
		m, _ := newManager(t, plugin.Options{}, source("p", "builtin:"+mode))
		_, err := m.Describe(context.Background(), "p")
		require.NoError(t, err)
		addr := m.Addrs()["source/p"]
		require.NotNil(t, addr)
		for name, certs := range clients {
			t.Run(mode+"/"+name, func(t *testing.T) {
				raw, err := net.Dial(addr.Network(), addr.String())
				require.NoError(t, err, "the socket itself is reachable")
				conn := tls.Client(raw, &tls.Config{Certificates: certs, InsecureSkipVerify: true, NextProtos: []string{"h2"}})
				defer conn.Close()
				require.NoError(t, conn.SetDeadline(time.Now().Add(10*time.Second)))
				// TLS 1.3 reports the server's verdict on the client's
				// certificate with the first read after the handshake.
				require.NoError(t, conn.Handshake())
				server := conn.ConnectionState().PeerCertificates[0].PublicKey.(*ecdsa.PublicKey)
				assert.Equal(t, curve.Params().Name, server.Curve.Params().Name)
				_, err = conn.Read(make([]byte, 1))
				require.Error(t, err)
				assert.Contains(t, err.Error(), "remote error: tls:")
			})
		}
	}
}

// selfSigned makes a P-256 client certificate the plugin has never seen.
func selfSigned(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		Subject:               pkix.Name{CommonName: "localhost"},
		DNSNames:              []string{"localhost"},
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		SerialNumber:          big.NewInt(1),
		NotBefore:             time.Now().Add(-time.Minute),
		NotAfter:              time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	require.NoError(t, err)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}
