package host2plugin

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
)

// The variables in which a nous host hands its plugin a TLS server
// certificate and its key (PEM): the plugin serves with them instead of
// generating a P-521 key of its own for go-plugin's AutoMTLS, and the host
// pins that certificate as the only one it trusts.
//
// Handing a private key through the environment is acceptable here:
//   - Only processes allowed to ptrace-read the plugin (its own user, root)
//     can read /proc/PID/environ; the same user can already read the
//     host's environment, where the tokens the channel carries come from
//     (GITLAB_TOKEN, ...), and the config files and rules that hold the
//     rest. The key protects nothing they could not reach anyway.
//   - The key is fresh for each plugin process, never written to disk,
//     and good only for that one connection: the host trusts it for no
//     other plugin.
//   - Its use is to authenticate the plugin to the host; what keeps other
//     clients out of the plugin is the host's client certificate, whose key
//     never leaves the host's memory.
//   - It is taken out of the environment before main runs, so nothing the
//     plugin starts (git, a shell) inherits it. /proc/PID/environ still
//     shows the process's initial environment, to the readers above only.
//
// An older plugin ignores the variables (and would pass them on to its
// children): it does go-plugin's AutoMTLS, sends its own certificate in the
// handshake, and go-plugin pins that one instead, so the key it ignored
// authenticates nothing.
const (
	EnvTLSCert = "NOUS_PLUGIN_TLS_CERT"
	EnvTLSKey  = "NOUS_PLUGIN_TLS_KEY"
)

// envClientCert is go-plugin's variable with the host's client certificate.
const envClientCert = "PLUGIN_CLIENT_CERT"

// handed is the identity the host handed this process, taken out of the
// environment at package initialisation.
var handed = takeIdentity()

// handedIdentity is the PEM certificate and key of EnvTLSCert and EnvTLSKey.
type handedIdentity struct {
	cert, key string
}

// takeIdentity reads EnvTLSCert and EnvTLSKey and unsets them.
func takeIdentity() handedIdentity {
	h := handedIdentity{cert: os.Getenv(EnvTLSCert), key: os.Getenv(EnvTLSKey)}
	if h.cert != "" || h.key != "" {
		_ = os.Unsetenv(EnvTLSCert)
		_ = os.Unsetenv(EnvTLSKey)
	}
	return h
}

// serverTLS is go-plugin's TLSProvider: the handed identity, accepting only
// clients with the certificate of PLUGIN_CLIENT_CERT. Without a handed
// identity it returns nil, and go-plugin falls back to its AutoMTLS.
func serverTLS(h handedIdentity, clientCert string) (*tls.Config, error) {
	if h.cert == "" && h.key == "" {
		return nil, nil
	}
	// The messages name the variables, never their values.
	cert, err := tls.X509KeyPair([]byte(h.cert), []byte(h.key))
	if err != nil {
		return nil, fmt.Errorf("the TLS certificate and key in %s and %s: %w", EnvTLSCert, EnvTLSKey, err)
	}
	clients := x509.NewCertPool()
	if !clients.AppendCertsFromPEM([]byte(clientCert)) {
		return nil, errors.New("the host handed a TLS identity but " + envClientCert + " holds no certificate: refusing to serve without client authentication")
	}
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		ClientAuth:   tls.RequireAndVerifyClientCert,
		ClientCAs:    clients,
		MinVersion:   tls.VersionTLS13, // the hosts that hand an identity speak 1.3
	}, nil
}
