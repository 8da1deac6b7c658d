package plugin

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"time"

	"github.com/nous-dev/nous/sdk/host"
)

// The plugin transport is mutual TLS, as with go-plugin's AutoMTLS, but with
// P-256 keys instead of its P-521 ones: P-521 key generation, signing and
// the verification x509.CreateCertificate does of its own signature cost
// ~17 ms per plugin on the host and again in each child, on the critical
// path of every cold start. P-256 does the same in well under a millisecond
// and every TLS stack (go-plugin's other-language servers included) accepts
// it; Ed25519 would be as fast, but not every stack does.

// identity is an ephemeral self-signed certificate and its key, valid for
// "localhost" as both client and server, which is what go-plugin's AutoMTLS
// peers expect.
type identity struct {
	cert    tls.Certificate // with its Leaf
	certPEM []byte
	keyPEM  []byte
}

// clientIdentity is the host's client certificate, made once per host
// process on first use: every plugin child learns it from
// PLUGIN_CLIENT_CERT and accepts only connections that present it. Its key
// never leaves the host's memory.
var clientIdentity = sync.OnceValues(newIdentity)

// newIdentity makes a fresh P-256 key and a self-signed certificate for it.
func newIdentity() (identity, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return identity{}, err
	}
	sn, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return identity{}, err
	}
	now := time.Now()
	template := &x509.Certificate{
		Subject:     pkix.Name{CommonName: "localhost", Organization: []string{"nous"}},
		DNSNames:    []string{"localhost"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
		// A CA like go-plugin's own, so every peer that pins it as its
		// only root accepts it.
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		SerialNumber:          sn,
		NotBefore:             now.Add(-30 * time.Second),
		// The key lives only in memory, for the life of the processes that
		// hold it; an expiry would only break a long-running host.
		NotAfter: now.AddDate(30, 0, 0),
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, key.Public(), key)
	if err != nil {
		return identity{}, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return identity{}, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return identity{}, err
	}
	return identity{
		cert:    tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf},
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		keyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}),
	}, nil
}

// transport is the mutual TLS of one plugin process. The host presents its
// client certificate and trusts only the server certificate it made for
// this child (handed over in host.EnvTLSCert and host.EnvTLSKey, see
// sdk/internal/host2plugin/tls.go for why the environment is acceptable).
// A plugin built on an older SDK or plain go-plugin ignores that identity,
// does go-plugin's AutoMTLS and sends its own certificate in the handshake
// line, which go-plugin then pins in place of ours.
type transport struct {
	config *tls.Config
	env    []string       // entries for the child's environment
	pinned *x509.CertPool // the roots before the handshake
}

// newTransport makes the TLS configuration and environment of one child.
func newTransport() (transport, error) {
	client, err := clientIdentity()
	if err != nil {
		return transport{}, fmt.Errorf("making the host's TLS certificate: %w", err)
	}
	server, err := newIdentity()
	if err != nil {
		return transport{}, fmt.Errorf("making the plugin's TLS certificate: %w", err)
	}
	pinned := x509.NewCertPool()
	pinned.AddCert(server.cert.Leaf)
	return transport{
		config: &tls.Config{
			Certificates: []tls.Certificate{client.cert},
			RootCAs:      pinned,
			// go-plugin's broker serves with this configuration too.
			ClientAuth: tls.RequireAndVerifyClientCert,
			ClientCAs:  pinned,
			// go-plugin's servers accept 1.2 and up; every Go server speaks 1.3.
			MinVersion: tls.VersionTLS13,
			ServerName: "localhost",
		},
		env: []string{
			"PLUGIN_CLIENT_CERT=" + string(client.certPEM),
			host.EnvTLSCert + "=" + string(server.certPEM),
			host.EnvTLSKey + "=" + string(server.keyPEM),
		},
		pinned: pinned,
	}, nil
}

// handshakeCert reports whether the plugin sent its own certificate in the
// handshake line (go-plugin's AutoMTLS), which go-plugin pinned in place of
// ours. Valid once the client has started.
func (t transport) handshakeCert() bool {
	return t.config.RootCAs != t.pinned
}

// errNoMutualTLS is why a plugin that did not complete the TLS handshake
// with the certificate it was handed is refused.
var errNoMutualTLS = errors.New("nous connects to plugins only over mutually authenticated TLS (a plugin built on github.com/nous-dev/nous/sdk or hashicorp/go-plugin does this itself)")
