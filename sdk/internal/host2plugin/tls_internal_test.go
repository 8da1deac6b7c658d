package host2plugin

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTakeIdentityEmptiesTheEnvironment(t *testing.T) {
	t.Setenv(EnvTLSCert, "cert")
	t.Setenv(EnvTLSKey, "key")
	assert.Equal(t, handedIdentity{cert: "cert", key: "key"}, takeIdentity())
	_, certSet := os.LookupEnv(EnvTLSCert)
	_, keySet := os.LookupEnv(EnvTLSKey)
	assert.False(t, certSet)
	assert.False(t, keySet)
}

func TestServerTLS(t *testing.T) {
	server, client := testPEM(t), testPEM(t)
	tests := []struct {
		name    string
		handed  handedIdentity
		client  string
		wantErr string // "" for success
		wantNil bool   // go-plugin's AutoMTLS
	}{
		{name: "nothing handed", client: client.cert, wantNil: true},
		{name: "handed", handed: server, client: client.cert},
		{name: "key missing", handed: handedIdentity{cert: server.cert}, client: client.cert, wantErr: "the TLS certificate and key in NOUS_PLUGIN_TLS_CERT and NOUS_PLUGIN_TLS_KEY: tls:"},
		{name: "key of another certificate", handed: handedIdentity{cert: server.cert, key: client.key}, client: client.cert, wantErr: "private key does not match public key"},
		{name: "no client certificate", handed: server, wantErr: "PLUGIN_CLIENT_CERT holds no certificate: refusing to serve without client authentication"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := serverTLS(tt.handed, tt.client)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				for _, line := range strings.Split(tt.handed.key, "\n") {
					if len(line) > 16 && !strings.HasPrefix(line, "-----") {
						assert.NotContains(t, err.Error(), line, "the key must not appear in the message")
					}
				}
				assert.NotContains(t, err.Error(), "PRIVATE KEY-----")
				return
			}
			require.NoError(t, err)
			if tt.wantNil {
				assert.Nil(t, cfg)
				return
			}
			assert.Equal(t, tls.RequireAndVerifyClientCert, cfg.ClientAuth)
			assert.Len(t, cfg.Certificates, 1)
			assert.Equal(t, uint16(tls.VersionTLS13), cfg.MinVersion)
		})
	}
}

// testPEM makes a P-256 self-signed certificate and key, as a host does.
func testPEM(t testing.TB) handedIdentity {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		Subject:      pkix.Name{CommonName: "localhost"},
		SerialNumber: big.NewInt(1),
		NotBefore:    time.Now().Add(-time.Minute),
		NotAfter:     time.Now().Add(time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	require.NoError(t, err)
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	require.NoError(t, err)
	return handedIdentity{
		cert: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		key:  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})),
	}
}
