package server

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// unusedConns closes exactly the connections that have not sent a request:
// one that has (active, idle between requests) is left to http.Server.
func TestUnusedConnsCloseOnlyTheUnused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	pair := func() (client, server net.Conn) {
		client, err := net.Dial("tcp", ln.Addr().String())
		require.NoError(t, err)
		server, err = ln.Accept()
		require.NoError(t, err)
		t.Cleanup(func() { client.Close(); server.Close() })
		return client, server
	}
	var u unusedConns
	unusedClient, unused := pair()
	usedClient, used := pair()
	u.track(unused, http.StateNew)
	u.track(used, http.StateNew)
	u.track(used, http.StateActive)
	u.track(used, http.StateIdle)

	u.closeAll()
	// A deadline only so a connection left open fails the test instead of
	// hanging it.
	require.NoError(t, unusedClient.SetReadDeadline(time.Now().Add(time.Minute)))
	_, err = unusedClient.Read(make([]byte, 1))
	assert.ErrorIs(t, err, io.EOF, "the unused connection is closed")
	_, err = used.Write([]byte("x"))
	require.NoError(t, err, "the used connection is open")
	b := make([]byte, 1)
	_, err = io.ReadFull(usedClient, b)
	require.NoError(t, err)
	assert.Equal(t, "x", string(b))
}
