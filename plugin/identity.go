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
)

// The plugin transport is mutual TLS, as with go-plugin's AutoMTLS, but with
// P-256 keys instead of its P-521 ones: P-521 key generation, signing and
// the verification x509.CreateCertificate does of its own signature cost
// ~17 ms per plugin on the host and again in each child, on the critical
// path of every cold start. P-256 does the same in well under a millisecond
// and is what every TLS stack (go-plugin's other-language servers included)
// accepts; Ed25519 would be as fast but is not.

// identity is an ephemeral self-signed certificate and its key, valid for
// "localhost" as both client and server, which is what go-plugin's AutoMTLS
// peers expect.
type identity struct {
	cert    tls.Certificate
	certPEM []byte
}

// clientIdentity is the host's client certificate, made once per host
// process on first use: every plugin child learns it from
// PLUGIN_CLIENT_CERT and accepts only connections that present it.
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
	return identity{
		cert:    tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
	}, nil
}

// clientTLS returns the TLS configuration of one plugin client, and the
// environment entry that tells the child which client certificate to
// accept. go-plugin pins the certificate the child sends in its handshake
// line as the only root; checkPinned refuses a child that sent none.
func clientTLS() (*tls.Config, string, error) {
	id, err := clientIdentity()
	if err != nil {
		return nil, "", fmt.Errorf("making the host's TLS certificate: %w", err)
	}
	cfg := &tls.Config{
		Certificates: []tls.Certificate{id.cert},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		// go-plugin's servers accept 1.2 and up; every Go server speaks 1.3.
		MinVersion: tls.VersionTLS13,
		ServerName: "localhost",
	}
	return cfg, "PLUGIN_CLIENT_CERT=" + string(id.certPEM), nil
}

// errNoServerCert is why a plugin whose handshake carried no certificate is
// refused: without one, nothing would authenticate the plugin's end.
var errNoServerCert = errors.New("its handshake carried no TLS certificate; nous connects to plugins only over mutually authenticated TLS (a plugin built on github.com/nous-dev/nous/sdk or hashicorp/go-plugin does this itself)")

// checkPinned reports an error unless cfg trusts a server certificate.
func checkPinned(cfg *tls.Config) error {
	if cfg.RootCAs == nil {
		return errNoServerCert
	}
	return nil
}
